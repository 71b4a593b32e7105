-- Nexmark q3, local item suggestion: sellers in some states of auctions in
-- one category (a stream-stream inner join; no watermark, so both sides stay
-- in state).
SELECT p.name, p.city, p.state, a.id
  FROM auction a JOIN person p ON a.seller = p.id
 WHERE a.category = 10 AND (p.state = 'OR' OR p.state = 'ID' OR p.state = 'CA')
