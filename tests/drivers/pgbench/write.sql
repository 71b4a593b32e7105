BEGIN;
INSERT INTO tx_pgbench (id, amount, note) VALUES (:client_id, :x, 'bench');
SELECT count(*) FROM tx_pgbench WHERE id = :client_id;
COMMIT;
