"""Beyond the papers: every learner family on every data set under one protocol, with modern statistics."""
