CREATE TABLE IF NOT EXISTS x USING csv OPTIONS (path 'p');
CREATE TABLE t (a INT) USING csv;
CREATE QUERY hourly_clicks SINK file OPTIONS (path '/lake/gold/hourly_clicks', format 'json') OUTPUT MODE append TRIGGER PROCESSING TIME '1 minute' CHECKPOINT '/chk/hourly_clicks' OPTIONS ('sluice.stateStore' 'rocksdb', 'sluice.shufflePartitions' '4') AS SELECT window.start AS hour, campaign_id, count(*) AS clicks FROM clicks WATERMARK event_time DELAY OF INTERVAL '15 minutes' GROUP BY window(event_time, '1 hour'), campaign_id;
CREATE QUERY IF NOT EXISTS q SINK kafka OPTIONS (topic 'o') OPTIONS (a 'b') TRIGGER AVAILABLE NOW AS SELECT * FROM s;
CREATE QUERY q OPTIONS (a 'b') SINK memory AS SELECT * FROM s