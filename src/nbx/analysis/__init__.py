"""Analyses of fitted learners and of their predictions (bias/variance, model forms)."""
from .bias_variance import (BiasVariance, boosted_nb_linear_form, kohavi_wolpert, linear_form_score,
                            nb_linear_form)

__all__ = ["BiasVariance", "kohavi_wolpert", "nb_linear_form", "linear_form_score", "boosted_nb_linear_form"]
