SELECT 1;
SELECT timestamp, value FROM rate_stream WHERE key = 'x';
SELECT window.start, count(*) FROM t GROUP BY window(ts, '1 hour');
CREATE STREAM clicks (campaign_id STRING, user_id STRING, event_time TIMESTAMP) USING kafka OPTIONS ('kafka.bootstrap.servers' 'localhost:9092', subscribe 'clicks', startingOffsets 'earliest', maxOffsetsPerTrigger '200000', format 'json') WATERMARK event_time DELAY OF INTERVAL '15 minutes';
CREATE STREAM IF NOT EXISTS r USING rate