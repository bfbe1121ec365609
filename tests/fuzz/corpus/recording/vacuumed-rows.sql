PRAGMA journal_mode = DELETE; PRAGMA page_size = 1024; VACUUM; UPDATE rollup SET first_slot = -5, slots = 99; UPDATE alert_events SET ts = 1, value = 1e308;
