"""Paper-specific report sections: one module per experiment, each with sections(ctx) -> markdown lines."""
