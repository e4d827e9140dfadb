CREATE VIRTUAL TABLE IF NOT EXISTS docs USING vec0(
    id INTEGER PRIMARY KEY,
    embedding float[4] distance_metric=cosine,
    category text,
    +title text);
