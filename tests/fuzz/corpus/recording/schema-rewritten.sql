PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = replace(sql, 'count INTEGER', 'count INTEGER CHECK(count > 0)') WHERE name = 'tail_chunks'; PRAGMA user_version = 2;
