'it''s
