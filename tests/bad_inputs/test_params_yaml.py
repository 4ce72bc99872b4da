"""params.yaml has a closed schema: a key written twice, an unknown key (with its did-you-mean), a value of the
wrong type or out of range, at every level (top, data, experiment, protocol, discretizer, limited, published,
analyses, learner block, nested learner block), a name that is not a name (an experiment, learner or data set
named like a path) or a catalogue outside data/local/, and a YAML syntax error each stop the code stage, the first
of ``dvc repro`` (its checks run before it writes the code digests), before anything is read or written, as one
exact line ``params.yaml:LINE: ...``. Each case edits the text of the committed params.yaml (block style, as DVC's
``dvc exp run -S`` writes it); LINE is found from the edited text, so the tests follow the file."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
import yaml
from cli_run import python

from nbx.core.errors import NbxError
from nbx.data.yaml_io import UniqueKeyLoader
from nbx.pipeline import analyse, config
from nbx.pipeline.check import check_params
from nbx.pipeline.prepare import prepare
from nbx.protocol.options import resolve

REPO = Path(__file__).resolve().parents[2]
PARAMS = (REPO / "params.yaml").read_text()
# the parser's words for a colon after a plain value: libyaml's, or PyYAML's pure-Python parser's without it
MAPPING_VALUES = "mapping values are not allowed " + (
    "in this context" if issubclass(UniqueKeyLoader, getattr(yaml, "CSafeLoader", ())) else "here"
)
EXTRA = "\n  extra:\n"  # a learner appended to the file (no experiment runs it): room for multi-line nested blocks
# texts of the committed file the cases edit (block style, one key per line: each anchored where a line alone is not
# unique, e.g. kang2006's protocol by its folds_by_dataset)
KANG_PROTOCOL = "      folds: 10\n      repeats: 1\n      stratified: true\n      folds_by_dataset:\n"
KANG_TITLE = "    title: Kang & Tian (2006), HBayes hybrid generative/discriminative \n      classifier — Table 1\n"
KANG_LEARNERS = "    learners:\n    - hbayes_nb\n    - hbayes_tan\n"
NB_KANG = "  nb_kang:\n    class: NaiveBayes   # Kang & Tian eq. 4\n    prior: kang\n"
NAME_RULE = "letters, digits, '_' and '-', starting with a letter or digit (at most 64)"

# (id, text replaced (its first occurrence; "" appends), replacement, the error's line as a text unique in the
# edited file (the line where it starts), the message after "params.yaml:LINE: " ({first}: the line of the first
# of the two keys, see FIRST))
CASES = [
    # ------------------------------------------------------------------------------------ duplicate keys
    (
        "duplicate top-level key",
        "seed: 2026\n",
        "seed: 2026\nseed: 7\n",
        "seed: 7",
        "duplicate key 'seed' (first at line {first})",
    ),
    (
        "duplicate experiment",
        "  ting2003:\n",
        "  kang2006:\n    title: again\n  ting2003:\n",
        "  kang2006:\n    title: again",
        "duplicate key 'kang2006' (first at line {first})",
    ),
    (
        "duplicate key in an experiment",
        "    reference: nb_ting",
        "    reference: nb_ting\n    reference: lnbt1",
        "    reference: lnbt1",
        "duplicate key 'reference' (first at line {first})",
    ),
    (
        "duplicate key in a protocol",
        KANG_PROTOCOL,
        KANG_PROTOCOL.replace("folds: 10\n", "folds: 10\n      folds: 7\n"),
        "      folds: 7",
        "duplicate key 'folds' (first at line {first})",
    ),
    (
        "duplicate learner block",
        "  nb_ting:\n",
        "  nb_kang:\n    class: NaiveBayes\n  nb_ting:\n",
        "  nb_kang:\n    class: NaiveBayes\n",
        "duplicate key 'nb_kang' (first at line {first})",
    ),
    (
        "duplicate key in a learner block",
        NB_KANG,
        NB_KANG + "    prior: laplace   # again\n",
        "    prior: laplace   # again",
        "duplicate key 'prior' (first at line {first})",
    ),
    (
        "duplicate key in a nested block",
        "",
        EXTRA + "    class: AdaBoostM1\n    base:\n      class: NaiveBayes\n      m: 2.0\n      m: 3.0\n",
        "      m: 3.0",
        "duplicate key 'm' (first at line {first})",
    ),
    # ------------------------------------------------------------------------------------- unknown keys
    (
        "unknown top-level key",
        "seed: 2026",
        "seeed: 2026",
        "seeed",
        "key 'seeed' is not a known key of the top level; did you mean seed?",
    ),
    (
        "unknown data key",
        "  catalogues: []",
        "  catalogue: []",
        "catalogue:",
        "key 'catalogue' is not a known key of data; did you mean catalogues?",
    ),
    (
        "misspelled reference",
        "    reference: nb_ting",
        "    refrence: nb_ting",
        "refrence",
        "key 'refrence' is not a known key of experiments.ting2003; did you mean reference?",
    ),
    (
        "misspelled impute",
        "    impute: mode_after_discretize",
        "    imupte: mode_after_discretize",
        "imupte",
        "key 'imupte' is not a known key of experiments.kang2006; did you mean impute, limited?",
    ),
    (
        "misspelled learners",
        KANG_LEARNERS,
        KANG_LEARNERS.replace("learners:", "learnres:"),
        "learnres",
        "key 'learnres' is not a known key of experiments.kang2006; did you mean learners?",
    ),
    (
        "unknown protocol key",
        KANG_PROTOCOL,
        KANG_PROTOCOL.replace("folds: 10", "fold: 10"),
        "      fold: 10",
        "key 'fold' is not a known key of experiments.kang2006.protocol (kind 'cv'); did you mean folds?",
    ),
    (
        "unknown discretizer option",
        "      kind: equal_width\n      bins: 10\n",
        "      kind: equal_width\n      bin: 10\n",
        "bin: 10",
        "key 'bin' is not a known key of experiments.kang2006.discretizer; did you mean bins?",
    ),
    (
        "unknown limited key",
        "    limited:\n      learners:\n",
        "    limited:\n      learner:\n",
        "      learner:",
        "key 'learner' is not a known key of experiments.benchmark.limited; did you mean learners?",
    ),
    (
        "unknown published key",
        "    - table: kang2006_table1.csv",
        "    - tabel: kang2006_table1.csv",
        "tabel",
        "key 'tabel' is not a known key of experiments.kang2006.published.0; did you mean table?",
    ),
    (
        "unknown analyses experiment",
        "  wang2006: {}",
        "  wang2066: {}",
        "wang2066",
        "key 'wang2066' is not a known key of analyses; did you mean wang2006, kang2006?",
    ),
    (
        "unknown option of a synthetic check",
        "    xor_seeds: 20",
        "    xor_seed: 20",
        "xor_seed:",
        "key 'xor_seed' is not a known key of analyses.wiering2003; did you mean xor_seeds, xor_passes, parity_seeds?",
    ),
    (
        "option of a synthetic check of the wrong kind",
        "    n_rows: 600",
        "    n_rows: lots",
        "n_rows: lots",
        "analyses.ting2003.n_rows: 'lots' must be an integer >= 2",
    ),
    (
        "list option of a synthetic check with a bad item",
        "    - 300\n    - 3000\n",
        "    - 300\n    - -3000\n",
        "- -3000",
        "analyses.lee2006.sizes.1: -3000 must be an integer >= 2",
    ),
    (
        "number option of a synthetic check out of range",
        "    concentration: 2.0",
        "    concentration: 0",
        "concentration: 0",
        "analyses.lee2006.concentration: 0 must be a number > 0",
    ),
    (
        "unknown rounding of the NBC refits",
        "    nbc_rounding: trunc",
        "    nbc_rounding: round",
        "    nbc_rounding: round",
        "analyses.wiering2003.nbc_rounding: 'round' must be one of 'floor', 'trunc'",
    ),
    (
        "option of an experiment without synthetic checks",
        "  wang2006: {}\n",
        "  wang2006:\n    sizes:\n    - 300\n",
        "    sizes:\n    - 300\n  kang2006",
        "key 'sizes' is not a known key of analyses.wang2006; it takes no keys",
    ),
    (
        "misspelled pipeline key of a learner",
        NB_KANG,
        NB_KANG + "    seeed_as: nb\n",
        "seeed_as",
        "key 'seeed_as' is not a known key of learners.nb_kang (NaiveBayes); did you mean seed_as?",
    ),
    (
        "misspelled hyperparameter",
        NB_KANG,
        NB_KANG + "    alpah: 1\n",
        "alpah",
        "key 'alpah' is not a known key of learners.nb_kang (NaiveBayes); did you mean alpha?",
    ),
    (
        "misspelled nested hyperparameter",
        "",
        EXTRA + "    class: AdaBoostM1\n    base:\n      class: NaiveBayes\n      mm: 2.0\n",
        "mm: 2.0",
        "key 'mm' is not a known key of learners.extra.base (NaiveBayes); did you mean m?",
    ),
    (
        "misspelled hyperparameter of a list member",
        "",
        EXTRA
        + "    class: MUVofMUV\n    members:\n    - class: MUV\n      n_estimators: 2\n    - class: MUV\n"
        + "      n_estimator: 3\n",
        "n_estimator: 3",
        "key 'n_estimator' is not a known key of learners.extra.members.1 (MUV); did you mean n_estimators?",
    ),
    # --------------------------------------------------------------------------------------- wrong types
    ("seed as a string", "seed: 2026", "seed: '2026'", "seed:", "seed: '2026' must be a non-negative integer"),
    (
        "catalogues not a list",
        "  catalogues: []",
        "  catalogues: mine.yaml",
        "  catalogues:",
        "data.catalogues: 'mine.yaml' must be a list of catalogue files",
    ),
    (
        "title not a string",
        KANG_TITLE,
        "    title: 2006\n",
        "title: 2006",
        "experiments.kang2006.title: 2006 must be a string",
    ),
    (
        "data set id not a name",
        "      Labor: labor\n",
        "      Labor:\n      - labor\n",
        "Labor:",
        "experiments.kang2006.datasets.Labor: ['labor'] must be a data set name of the catalogue",
    ),
    (
        "folds as a word",
        KANG_PROTOCOL,
        KANG_PROTOCOL.replace("folds: 10", "folds: ten"),
        "folds: ten",
        "experiments.kang2006.protocol.folds: 'ten' must be an integer >= 2",
    ),
    (
        "stratified not a boolean",
        KANG_PROTOCOL,
        KANG_PROTOCOL.replace("stratified: true", "stratified: yes please"),
        "stratified: yes",
        "experiments.kang2006.protocol.stratified: 'yes please' must be true or false",
    ),
    (
        "discretizer option of the wrong type",
        "      bins: 10\n",
        "      bins: ten\n",
        "bins: ten",
        "experiments.kang2006.discretizer.bins: The 'bins' parameter of EqualWidthDiscretizer must be an int in the "
        "range [1, inf). Got 'ten' instead.",
    ),
    (
        "unknown discretizer kind",
        "      kind: equal_width\n",
        "      kind: equal_widht\n",
        "equal_widht",
        "experiments.kang2006.discretizer.kind: 'equal_widht' must be one of mdl, stddev, equal_width, none; did you "
        "mean equal_width?",
    ),
    (
        "analyses block not a mapping",
        "  wang2006: {}",
        "  wang2006: none",
        "wang2006: none",
        "analyses.wang2006: 'none' must be a mapping ({} for none)",
    ),
    (
        "published column not a name",
        "        hbayes_nb: hbayes_nb_err\n",
        "        hbayes_nb:\n        - hbayes_nb_err\n",
        "        hbayes_nb:\n",
        "experiments.kang2006.published.0.columns.hbayes_nb: ['hbayes_nb_err'] must be a column name",
    ),
    (
        "hyperparameter of the wrong type",
        NB_KANG,
        NB_KANG + "    alpha: abc\n",
        "alpha: abc",
        "learners.nb_kang.alpha: The 'alpha' parameter of NaiveBayes must be a float in the range [0.0, inf). Got "
        "'abc' instead.",
    ),
    (
        "pipeline flag not a boolean",
        NB_KANG,
        NB_KANG + "    all_classes: yes please\n",
        "all_classes: yes",
        "learners.nb_kang.all_classes: 'yes please' must be true or false",
    ),
    (
        "learner listed twice",
        KANG_LEARNERS,
        KANG_LEARNERS.replace("hbayes_tan", "hbayes_nb"),
        "    - hbayes_nb\n    - nb_laplace\n    - lr_kang_weka",
        "experiments.kang2006.learners.1: learner 'hbayes_nb' is listed twice (also item 0)",
    ),
    # ------------------------------------------------------------------------------------- out of range
    ("negative seed", "seed: 2026", "seed: -1", "seed:", "seed: -1 must be a non-negative integer"),
    (
        "one fold",
        KANG_PROTOCOL,
        KANG_PROTOCOL.replace("folds: 10", "folds: 1"),
        "      folds: 1\n",
        "experiments.kang2006.protocol.folds: 1 must be an integer >= 2",
    ),
    (
        "one fold for one data set",
        "        chess: 3\n",
        "        chess: 1\n",
        "chess: 1",
        "experiments.kang2006.protocol.folds_by_dataset.chess: 1 must be an integer >= 2",
    ),
    (
        "no repeats",
        "      folds: 3\n      repeats: 10\n",
        "      folds: 3\n      repeats: 0\n",
        "repeats: 0",
        "experiments.ting2003.protocol.repeats: 0 must be an integer >= 1",
    ),
    (
        "test fraction above one",
        "test_fraction: 0.5",
        "test_fraction: 1.5",
        "test_fraction: 1.5",
        "experiments.wiering2003.protocol.test_fraction: 1.5 must be a number in (0, 1)",
    ),
    (
        "no bins",
        "      bins: 10\n",
        "      bins: 0\n",
        "bins: 0",
        "experiments.kang2006.discretizer.bins: The 'bins' parameter of EqualWidthDiscretizer must be an int in the "
        "range [1, inf). Got 0 instead.",
    ),
    (
        "no rows allowed",
        "max_rows: 5000",
        "max_rows: 0",
        "max_rows: 0",
        "experiments.benchmark.limited.max_rows: 0 must be an integer >= 1",
    ),
    (
        "negative smoothing",
        NB_KANG,
        NB_KANG + "    alpha: -1\n",
        "alpha: -1",
        "learners.nb_kang.alpha: The 'alpha' parameter of NaiveBayes must be a float in the range [0.0, inf). Got -1 "
        "instead.",
    ),
    (
        "nested value out of range",
        "",
        EXTRA + "    class: AdaBoostM1\n    base:\n      class: NaiveBayes\n      m: -2.0\n",
        "m: -2.0",
        "learners.extra.base.m: The 'm' parameter of NaiveBayes must be a float in the range [0.0, inf). Got -2.0 "
        "instead.",
    ),
    # ------------------------------------------------------------ names that are paths, files outside data/local
    (
        "experiment name with a path",
        "  kang2006:\n    title:",
        "  ../../escape:\n    title:",
        "../../escape:",
        f"experiments.../../escape: '../../escape' is not a valid experiment name: {NAME_RULE}",
    ),
    (
        "learner name with a path",
        "",
        "\n  '../x':\n    class: NaiveBayes\n",
        "'../x':",
        f"learners.../x: '../x' is not a valid learner name: {NAME_RULE}",
    ),
    (
        "data set id with a path",
        "      Labor: labor\n",
        "      Labor: ../../etc\n",
        "Labor: ../../etc",
        f"experiments.kang2006.datasets.Labor: '../../etc' is not a valid data set name: {NAME_RULE}",
    ),
    (
        "listed data set id with a path",
        "    - abalone3\n",
        "    - ../../etc\n",
        "    - ../../etc",
        f"experiments.benchmark.datasets.0: '../../etc' is not a valid data set name: {NAME_RULE}",
    ),
    (
        "catalogue outside the repository",
        "  catalogues: []",
        "  catalogues:\n  - ../outside.yaml",
        "  - ../outside.yaml",
        "data.catalogues.0: '../outside.yaml' must be a file under data/local/",
    ),
    (
        "catalogue leaving data/local",
        "  catalogues: []",
        "  catalogues:\n  - data/local/../../outside.yaml",
        "  - data/local/../../outside.yaml",
        "data.catalogues.0: 'data/local/../../outside.yaml' must be a file under data/local/",
    ),
    # ------------------------------------------------------------------------------------------- syntax
    (
        "YAML syntax error",
        "    reference: nb_ting",
        "    reference: nb_ting: 2",
        "reference: nb_ting: 2",
        f"not valid YAML ({MAPPING_VALUES})",
    ),
]
# the first of two duplicate keys, as a text unique in the edited file (the line where it starts)
FIRST = {
    "seed": "seed: 2026",
    "kang2006": "  kang2006:\n    title: Kang",
    "reference": "    reference: nb_ting",
    "folds": "      folds: 10\n      folds: 7",
    "nb_kang": "  nb_kang:\n    class: NaiveBayes   # Kang",
    "prior": "    prior: kang\n",
    "m": "      m: 2.0\n      m: 3.0",
}


def _edit(old: str, new: str) -> str:
    if not old:
        return PARAMS + new
    assert old in PARAMS, old
    return PARAMS.replace(old, new, 1)


def _line(text: str, needle: str) -> int:
    assert text.count(needle) == 1, needle
    return text[: text.index(needle)].count("\n") + 1


def _expected(text: str, at: str, message: str) -> str:
    key = message.split("'")[1] if message.startswith("duplicate key") else None
    return f"params.yaml:{_line(text, at)}: " + (message.format(first=_line(text, FIRST[key])) if key else message)


def _repo(tmp_path: Path, text: str) -> Path:
    """A repository with only params.yaml, two folders below ``tmp_path``: a path of a name that climbed out of it
    (``../../escape``) would still land inside ``tmp_path``, where :func:`_written` sees it."""
    repo = tmp_path / "a" / "b"
    repo.mkdir(parents=True)
    (repo / "params.yaml").write_text(text)
    return repo


def _written(tmp_path: Path) -> list[str]:
    return sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))


NOTHING_WRITTEN = ["a", "a/b", "a/b/params.yaml"]


def _first_error(tmp_path: Path, monkeypatch, text: str) -> str:
    """What the code stage's checks stop with (in-process), after checking nothing was written."""
    monkeypatch.chdir(_repo(tmp_path, text))
    with pytest.raises(NbxError) as err:
        check_params(config.load_params())
    assert _written(tmp_path) == NOTHING_WRITTEN
    return str(err.value)


@pytest.mark.parametrize("old, new, at, message", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_every_mistake_is_one_exact_line_at_its_key(tmp_path, monkeypatch, old, new, at, message):
    text = _edit(old, new)
    assert _first_error(tmp_path, monkeypatch, text) == _expected(text, at, message)


def test_an_unknown_data_set_in_folds_by_dataset_stops_prepare_before_reading_data(tmp_path, monkeypatch):
    """``folds_by_dataset`` names data sets of the catalogue, which the prepare stage reads first (an experiment
    may list fewer data sets than its protocol names, e.g. a quick run on one)."""
    text = _edit("        chess: 3\n", "        chesss: 3\n")
    monkeypatch.chdir(_repo(tmp_path, text))
    with pytest.raises(NbxError) as err:
        prepare(config.load_params(), "kang2006")
    line = _line(text, "chesss")
    assert str(err.value) == (
        f"params.yaml:{line}: experiments.kang2006.protocol.folds_by_dataset.chesss: unknown data set 'chesss'; "
        "did you mean chess?"
    )
    assert _written(tmp_path) == NOTHING_WRITTEN


STAGE_CASES = [
    "duplicate learner block",
    "misspelled reference",
    "misspelled nested hyperparameter",
    "experiment name with a path",
    "learner name with a path",
    "catalogue leaving data/local",
    "YAML syntax error",
]


@pytest.mark.parametrize("case", STAGE_CASES)
def test_the_first_stage_of_dvc_repro_stops_with_the_line(tmp_path, case):
    """``dvc repro`` runs ``python stages/code_digest.py`` first: it exits 1 with the one line, no traceback,
    and writes nothing (no data/code/ digests: they are written only after the checks pass, and no file of a name
    that is a path, in or outside the repository)."""
    _, old, new, at, message = next(c for c in CASES if c[0] == case)
    text = _edit(old, new)
    assert python(_repo(tmp_path, text), str(REPO / "stages" / "code_digest.py")) == (
        1,
        "",
        f"code_digest: {_expected(text, at, message)}\n",
    )
    assert _written(tmp_path) == NOTHING_WRITTEN


@pytest.mark.parametrize("case", ["duplicate experiment", "misspelled impute", "experiment name with a path"])
def test_every_stage_and_the_nbx_command_stop_with_the_same_line(tmp_path, case):
    """Mistakes outside the learner blocks are found when params.yaml is loaded, by every stage (here the
    split stage, whose inputs do not exist) and by the ``nbx`` command alike."""
    _, old, new, at, message = next(c for c in CASES if c[0] == case)
    text = _edit(old, new)
    repo = _repo(tmp_path, text)
    line = _expected(text, at, message)
    assert python(repo, str(REPO / "stages" / "split.py"), "kang2006") == (1, "", f"split kang2006: {line}\n")
    assert python(repo, "-m", "nbx.cli", "learners") == (1, "", f"nbx: error: {line}\n")
    assert _written(tmp_path) == NOTHING_WRITTEN


@pytest.mark.parametrize(
    "module", [m for n in yaml.safe_load(PARAMS)["experiments"] if (m := analyse.checks_module(n))]
)
def test_params_yaml_shows_every_option_of_a_synthetic_check(module):
    """The committed analyses block sets every key of the module's ``OPTIONS``, each of the kind it declares: a
    reader of params.yaml sees all a check can vary."""
    checks = importlib.import_module(module)
    block = yaml.safe_load(PARAMS)["analyses"][module.split(".")[2]]
    assert list(block) == list(checks.OPTIONS)
    assert resolve(checks.OPTIONS, block) == block


def test_the_committed_params_load_as_plain_yaml_does():
    """The checks change nothing for a valid file: the same document as PyYAML's safe loader reads."""
    params = config.load_params(REPO / "params.yaml")
    assert dict(params) == yaml.safe_load(PARAMS)
