-- Nexmark q7, highest bid: the bids of each 10-second window that carry its
-- highest price (the windowed maximum joined back to the window's bids).
SELECT b.auction, b.price, b.bidder, b.date_time, b.extra
  FROM bid b WATERMARK date_time DELAY OF INTERVAL '0 seconds'
  JOIN (SELECT window.end AS endtime, max(price) AS maxprice
          FROM bid WATERMARK date_time DELAY OF INTERVAL '0 seconds'
         GROUP BY window(date_time, '10 seconds')) m
    ON b.price = m.maxprice
   AND b.date_time BETWEEN m.endtime - INTERVAL '10 seconds' AND m.endtime
