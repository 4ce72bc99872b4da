"""DVC stage: prepare (see nbx.pipeline.prepare)."""
from nbx import config, pipeline

if __name__ == "__main__":
    pipeline.prepare(config.load_params())
