-- Sessions example: page views as JSON files, grouped into per-user
-- sessions that end after 10 minutes without a view (session windows).
-- Run it with psql -f; it uses the directory /tmp/sluice-views.
\! rm -rf /tmp/sluice-views && mkdir -p /tmp/sluice-views
CREATE STREAM IF NOT EXISTS example_views (user_id STRING, page STRING, event_time TIMESTAMP)
  USING file OPTIONS (path '/tmp/sluice-views', format 'json')
  WATERMARK event_time DELAY OF INTERVAL '1 minute';
-- u1 views three pages 4 and 6 minutes apart (one session), then comes back
-- after 30 minutes; u2 views one page; the last view moves the watermark so
-- every earlier session is final
\! printf '{"user_id":"u1","page":"/","event_time":"2024-05-01 12:00:00"}\n{"user_id":"u1","page":"/pricing","event_time":"2024-05-01 12:04:00"}\n{"user_id":"u2","page":"/","event_time":"2024-05-01 12:05:00"}\n{"user_id":"u1","page":"/signup","event_time":"2024-05-01 12:10:00"}\n{"user_id":"u1","page":"/","event_time":"2024-05-01 12:40:00"}\n{"user_id":"u3","page":"/","event_time":"2024-05-01 13:00:00"}\n' > /tmp/sluice-views/.views1 && mv /tmp/sluice-views/.views1 /tmp/sluice-views/views1.json
CREATE QUERY IF NOT EXISTS example_sessions TRIGGER AVAILABLE NOW AS
  SELECT user_id, session_window.start AS began, session_window.end AS ended,
         count(*) AS views, first(page) AS landing, last(page) AS exit
  FROM example_views
  GROUP BY user_id, session_window(event_time, '10 minutes');
AWAIT QUERY example_sessions;
SELECT * FROM example_sessions ORDER BY began, user_id;
