UPDATE tail_chunks SET first_ts = -9223372036854775808;
