"""Nadeau & Bengio's corrected resampled t-test (nbx.stats.significance.corrected_t) on a hand-computed example."""

import numpy as np
import pytest
from scipy import stats as sps

from nbx.stats import significance as stats


def test_corrected_t_hand_example():
    # d = .01 .. .05 over k = 5 splits: mean .03, sample variance 2.5e-4. 10-fold (n_test/n_train = 1/9):
    # t = .03 / sqrt((1/5 + 1/9) 2.5e-4) = 3.40168, two-sided p with 4 df = 0.027235
    a = np.array([0.81, 0.82, 0.83, 0.84, 0.85])
    b = np.full(5, 0.80)
    assert stats.corrected_t(a, b, 0.1) == pytest.approx(0.027235, abs=1e-6)
    # without the correction term it is the paired t-test: t = 4.24264, p = 0.013236
    assert stats.corrected_t(a, b, 0.0) == pytest.approx(0.013236, abs=1e-6)
    assert stats.corrected_t(a, b, 0.0) == pytest.approx(sps.ttest_rel(a, b).pvalue)
    assert stats.corrected_t(b, a, 0.1) == stats.corrected_t(a, b, 0.1)


def test_corrected_t_constant_differences():
    assert stats.corrected_t(np.ones(4), np.ones(4), 0.1) == 1.0
    assert stats.corrected_t(np.ones(4), np.zeros(4), 0.1) == 0.0
