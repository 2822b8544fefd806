"""The editions of History of the World: each is a registered ruleset class (its name, options,
and what it overrides of the shared chapters) plus its data pack `data/<edition>/`, whose
`edition.yaml` gives the numbers and rule ids the shared chapters read."""
