"""Variants of a History of the World edition: registered rulesets (or options) that change
how an edition's turns run while reusing its chapters and data (the simultaneous-empires variant
of the Avalon Hill 2001 edition belongs here). None is registered yet."""
