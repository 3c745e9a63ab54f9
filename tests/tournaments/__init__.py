"""The tournaments app: its pages, the writer's actions (`pairing.services`), exports and translations."""
