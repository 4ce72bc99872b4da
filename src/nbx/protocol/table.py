"""A prepared data set: ``X`` (float, NaN = missing; nominal columns hold codes 0..V-1 into the attribute's
``values``), ``y`` (class codes into ``classes``) and the schema, saved as one npz."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from nbx.core.io import write_npz


@dataclass
class Table:
    name: str
    X: np.ndarray
    y: np.ndarray
    attributes: list[dict]  # {"name", "kind": "numeric" | "nominal", "values": [...]}
    classes: list[str]

    @property
    def n_values(self) -> np.ndarray:
        """Per attribute: number of nominal values, 0 for numeric."""
        return np.array([len(a["values"]) if a["kind"] == "nominal" else 0 for a in self.attributes], int)

    @property
    def nominal(self) -> np.ndarray:
        return np.array([a["kind"] == "nominal" for a in self.attributes], bool)

    def save(self, path: Path) -> None:
        schema = {"name": self.name, "attributes": self.attributes, "classes": self.classes}
        write_npz(path, X=self.X, y=self.y, schema=np.array(json.dumps(schema)))

    @classmethod
    def load(cls, path: Path) -> Table:
        with np.load(path) as z:
            schema = json.loads(str(z["schema"]))
            return cls(schema["name"], z["X"], z["y"], schema["attributes"], schema["classes"])
