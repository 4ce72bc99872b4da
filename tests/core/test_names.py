"""Names that become paths (nbx.core.names): no name can climb out of its folder, start an option or make a dotted
DVC key, and no path of the pipeline is made from one that could (nbx.pipeline.layout)."""

import pytest

from nbx.core.names import InvalidName, is_name, path_part
from nbx.pipeline import layout

BAD = ["", "..", "../x", "a/b", "a\\b", "-rf", ".hidden", "a.b", "/etc", "x" * 65, "a b", "é", None, 3]


@pytest.mark.parametrize("name", ["iris", "nb_laplace", "soybean-large", "segment2310", "A1", "x" * 64])
def test_good_names(name):
    assert is_name(name) and path_part(name) == name


@pytest.mark.parametrize("name", BAD)
def test_bad_names_are_refused(name):
    assert not is_name(name)
    with pytest.raises(InvalidName, match="is not a valid name: letters, digits"):
        path_part(name)


@pytest.mark.parametrize("name", ["../../escape", "a/b", "-x"])
@pytest.mark.parametrize(
    "path",
    [
        lambda n: layout.prepared(n),
        lambda n: layout.prepared("e", n),
        lambda n: layout.split_plan("e", n),
        lambda n: layout.fold_codes(n, "d"),
        lambda n: layout.predictions("e", n),
        lambda n: layout.predictions("e", "l", n),
        lambda n: layout.timings("e", n),
        lambda n: layout.trained(n),
        lambda n: layout.results(n),
        lambda n: layout.analysis(n),
        lambda n: layout.learner_metrics("e", n),
    ],
)
def test_no_pipeline_path_is_made_from_a_bad_name(name, path):
    with pytest.raises(InvalidName):
        path(name)
