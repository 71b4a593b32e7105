-- sluice's streaming fixtures (psql variable orders_dir: a directory holding
-- one JSON file of three orders): the file stream `orders` and the memory
-- table of the continuous query `order_totals`, filled before the programs run.
CREATE STREAM orders (id INT, item STRING, amount DECIMAL(8,2), ts TIMESTAMP)
  USING file OPTIONS (path :'orders_dir', format 'json');
CREATE QUERY order_totals OUTPUT MODE complete AS
  SELECT item, count(*) AS n, sum(amount) AS total FROM orders GROUP BY item;
AWAIT QUERY order_totals TIMEOUT '60 seconds';
