"""DVC stage: download (see nbx.pipeline.download)."""
from nbx import config, pipeline

if __name__ == "__main__":
    pipeline.download(config.load_params())
