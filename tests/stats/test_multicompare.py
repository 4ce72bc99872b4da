"""Friedman / Nemenyi / CD groups / Wilcoxon / Holm against Demšar (2006, JMLR 7) worked examples."""

import numpy as np
import pytest
from scipy import stats

from nbx.stats import multicompare as mc

NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
# Demšar 2006 Table 6: AUC of four C4.5 variants on 14 data sets, and the ranks printed in parentheses
AUC = np.array(
    [
        [0.763, 0.768, 0.771, 0.798],  # adult (sample)
        [0.599, 0.591, 0.590, 0.569],  # breast cancer
        [0.954, 0.971, 0.968, 0.967],  # breast cancer wisconsin
        [0.628, 0.661, 0.654, 0.657],  # cmc
        [0.882, 0.888, 0.886, 0.898],  # ionosphere
        [0.936, 0.931, 0.916, 0.931],  # iris
        [0.661, 0.668, 0.609, 0.685],  # liver disorders
        [0.583, 0.583, 0.563, 0.625],  # lung cancer
        [0.775, 0.838, 0.866, 0.875],  # lymphography
        [1.000, 1.000, 1.000, 1.000],  # mushroom
        [0.940, 0.962, 0.965, 0.962],  # primary tumor
        [0.619, 0.666, 0.614, 0.669],  # rheum
        [0.972, 0.981, 0.975, 0.975],  # voting
        [0.957, 0.978, 0.946, 0.970],  # wine
    ]
)
PAPER_RANKS = np.array(
    [
        [4, 3, 2, 1],
        [1, 2, 3, 4],
        [4, 1, 2, 3],
        [4, 1, 3, 2],
        [4, 2, 3, 1],
        [1, 2.5, 4, 2.5],
        [3, 2, 4, 1],
        [2.5, 2.5, 4, 1],
        [4, 3, 2, 1],
        [2.5, 2.5, 2.5, 2.5],
        [4, 2.5, 1, 2.5],
        [3, 2, 4, 1],
        [4, 1, 2, 3],
        [3, 1, 4, 2],
    ]
)
VOTING = 12  # printed as 0.975 / 0.975 but ranked 2 / 3: the unrounded AUCs differ


def test_ranks_reproduce_table6():
    ranks = mc.rank_rows(AUC)
    same = np.arange(14) != VOTING
    np.testing.assert_array_equal(ranks[same], PAPER_RANKS[same])
    np.testing.assert_array_equal(ranks[VOTING], [4, 1, 2.5, 2.5])  # the tie the rounding creates
    np.testing.assert_allclose(PAPER_RANKS.mean(axis=0), [3.143, 2.000, 2.893, 1.964], atol=5e-4)


def test_friedman_iman_davenport_demsar():
    # Demšar: chi2_F = 9.28, F_F = 3.69 with (3, 39) degrees of freedom, critical F(3, 39) at 0.05 = 2.85
    res = mc.friedman_from_ranks(PAPER_RANKS.mean(axis=0), 14)
    assert res.chi2 == pytest.approx(9.28, abs=0.005)
    assert res.ff == pytest.approx(3.69, abs=0.005)
    assert stats.f.ppf(0.95, 3, 39) == pytest.approx(2.85, abs=0.005) and res.p_ff < 0.05
    # from the printed (rounded) AUCs the voting tie shifts two ranks by 0.5/14
    raw = mc.friedman(AUC)
    np.testing.assert_allclose(raw.mean_ranks, [44 / 14, 28 / 14, 41 / 14, 27 / 14])
    assert raw.chi2 == pytest.approx(12 * 14 / 20 * (np.sum(raw.mean_ranks**2) - 25))


@pytest.mark.parametrize(
    "alpha, table",
    [
        (0.05, [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]),
        (0.10, [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]),
    ],
)
def test_nemenyi_q_matches_demsar_table5a(alpha, table):
    # Table 5(a) lists k = 2..10 to 3 decimals; scipy's quantiles differ from it by at most 0.0007
    # (k = 3 and 7 at 0.05: 2.3437 and 2.9483), rounding in the printed tables the paper used
    np.testing.assert_allclose([mc.nemenyi_q(k, alpha) for k in range(2, 11)], table, atol=1e-3)


@pytest.mark.parametrize(
    "alpha, table",
    [
        (0.05, [3.219, 3.268, 3.313, 3.354, 3.391, 3.426, 3.458, 3.489, 3.517, 3.544]),
        (0.10, [2.978, 3.030, 3.077, 3.120, 3.159, 3.196, 3.230, 3.261, 3.291, 3.319]),
    ],
)
def test_nemenyi_q_beyond_table5a(alpha, table):
    # k = 11..20 from the extended table that accompanies CD diagrams in Orange's compute_CD (Demšar's library)
    np.testing.assert_allclose([mc.nemenyi_q(k, alpha) for k in range(11, 21)], table, atol=6e-4)


def test_nemenyi_cd_and_groups_demsar():
    ranks = PAPER_RANKS.mean(axis=0)
    cd05, cd10 = mc.nemenyi_cd(4, 14, 0.05), mc.nemenyi_cd(4, 14, 0.10)
    assert round(cd05, 2) == 1.25 and round(cd10, 2) == 1.12  # Demšar's text
    # alpha 0.05: best-worst gap 3.143 - 1.964 = 1.179 < CD, one group of all four
    assert mc.cd_groups(ranks, cd05) == [(3, 1, 2, 0)]
    # alpha 0.10: C4.5 differs from C4.5+m and C4.5+m+cf; C4.5+cf is in both groups (Demšar Fig. 1a)
    assert mc.cd_groups(ranks, cd10) == [(3, 1, 2), (2, 0)]


def test_cd_groups_hand_cases():
    assert mc.cd_groups([1.0, 2.0, 3.0], 0.5) == []  # all different: no bars
    assert mc.cd_groups([1.0, 1.2, 3.0, 3.1], 0.5) == [(0, 1), (2, 3)]
    assert mc.cd_groups([1.0, 1.4, 1.8, 2.2], 0.5) == [(0, 1), (1, 2), (2, 3)]


def test_wilcoxon_demsar_table2():
    # Demšar Table 2 (C4.5 vs C4.5+m, the first two columns of Table 6): R+ = 93, R- = 12, two zero differences
    # split; the critical T for N = 14 at alpha 0.05 is 21, so the difference is significant
    t, p = mc.wilcoxon_signed_rank(AUC[:, 0], AUC[:, 1])
    assert t == 12 and p < 0.05
    assert mc.wilcoxon_signed_rank(AUC[:, 1], AUC[:, 0]) == (t, p)
    assert mc.wilcoxon_signed_rank([0.5, 0.6], [0.5, 0.6]) == (0.0, 1.0)


def test_wilcoxon_odd_number_of_zeros_drops_one():
    # d = (0, 1, -2, 3): one zero dropped -> ranks 1, 2, 3 of (1, -2, 3): R+ = 4, R- = 2
    t, _ = mc.wilcoxon_signed_rank([0, 1, 0, 3], [0, 0, 2, 0])
    assert t == 2


def test_holm_hand_and_demsar_example():
    # hand: sorted .005 .01 .03 .04 times 4, 3, 2, 1 -> .02 .03 .06 .06 (monotone)
    adjusted, reject = mc.holm([0.01, 0.04, 0.03, 0.005], 0.05)
    np.testing.assert_allclose(adjusted, [0.03, 0.06, 0.06, 0.02])
    assert reject.tolist() == [True, False, False, True]
    # Demšar Sec. 3.2.2: C4.5 as control, z = (R_0 - R_i) / 0.488, p = .016, .019, .607; Holm rejects the first two
    r = [3.143, 2.000, 2.893, 1.964]
    p = [2 * stats.norm.sf((r[0] - ri) / 0.488) for ri in (r[3], r[1], r[2])]
    np.testing.assert_allclose(p, [0.016, 0.019, 0.607], atol=2e-3)  # we get .0157, .0192, .6084
    assert mc.holm(p, 0.05)[1].tolist() == [True, True, False]


def test_pairwise_wilcoxon_holm_table():
    table = mc.pairwise_wilcoxon_holm(AUC, NAMES)
    assert len(table) == 6 and list(table[["a", "b"]].iloc[0]) == ["C4.5", "C4.5+m"]
    assert table["p"].iloc[0] == mc.wilcoxon_signed_rank(AUC[:, 0], AUC[:, 1])[1]
    assert np.all(table["p_holm"] >= table["p"])
    assert table["mean_diff"].iloc[0] == pytest.approx(np.mean(AUC[:, 0] - AUC[:, 1]))


def test_means_of_the_same_split_results_in_another_order_tie():
    a = np.array([0.1, 0.7, 0.2, 0.9, 0.3, 0.65, 0.4])
    b = a[::-1]
    assert a.mean() != b.mean()  # the summation order shows in the last bit ...
    ranks = mc.rank_rows([[a.mean(), b.mean(), 0.0]])
    assert ranks.tolist() == [[1.5, 1.5, 3.0]]  # ... but they are the same results: a tie
