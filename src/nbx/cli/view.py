"""How ``nbx show`` names what a model sees (its columns, values and classes), shared by the model printers."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class View:
    """How to name what a model sees: its input columns and the labels its class codes stand for."""

    names: list[str]  # attribute name per input column
    values: list[list[str]]  # per column, the label of each code ([] for a numeric column)
    classes: list[str]  # label of each class code the model was fitted on
    extra: dict

    def class_labels(self, model) -> list[str]:
        return [self.classes[int(c)] for c in model.classes_]

    def value(self, j: int, code: int) -> str:
        return self.values[j][code] if code < len(self.values[j]) else str(code)

    def subset(self, columns) -> View:
        return View([self.names[j] for j in columns], [self.values[j] for j in columns], self.classes, {})

    def member(self, ensemble) -> View:
        """Ensemble members are fitted on the ensemble's class indices."""
        return View(self.names, self.values, self.class_labels(ensemble), {})


def _num(x: float) -> str:
    return f"{x:.6g}"


def plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"
