UPDATE series SET labels = '{cpu=' || replace(hex(zeroblob(5000)), '0', '\,') || '}' WHERE id = 1;
