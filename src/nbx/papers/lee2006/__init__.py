"""Lee, Greiner & Wang (2006), mixtures using query-specific variance (MUV): figures 2-3 and claims L1-L7."""
