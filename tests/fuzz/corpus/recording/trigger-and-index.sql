CREATE TRIGGER grow AFTER INSERT ON series BEGIN INSERT INTO chunks VALUES(new.id); END; CREATE INDEX series_size ON series(length(labels));
