UPDATE blocks_20717 SET start_ts = 0, end_ts = 9223372036854775807, count = 2147483647 WHERE id = 1;
