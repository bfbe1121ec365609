UPDATE series SET labels = '{cpu=' || hex(zeroblob(200000)) || '}' WHERE id = 1;
