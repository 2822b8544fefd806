"""History of the World, Avalon Hill 2001 (`hotw-ah2001`): its printed tables so far (the
ruleset itself is still to come; see issue "History of the World, Avalon Hill 2001")."""
