-- A small relational bookstore database (SQLite). schemas/bookstore/schema.json is derived
-- from it by gqlir.schema.relational.to_graph: tables become node types, foreign keys n:1 edge
-- types, and the two association tables (book_author, order_line) edge types with properties.
CREATE TABLE publisher (
  publisher_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  country TEXT
);

CREATE TABLE author (
  author_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  birth_year INTEGER
);

CREATE TABLE book (
  isbn TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  publication_date DATE,
  price DECIMAL(8, 2),
  publisher_id INTEGER NOT NULL REFERENCES publisher (publisher_id)
);

CREATE TABLE book_author (
  isbn TEXT NOT NULL REFERENCES book (isbn),
  author_id INTEGER NOT NULL REFERENCES author (author_id),
  author_order INTEGER NOT NULL,
  PRIMARY KEY (isbn, author_id)
);

CREATE TABLE customer (
  customer_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL UNIQUE,
  city TEXT
);

CREATE TABLE orders (
  order_id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customer (customer_id),
  order_date TIMESTAMP NOT NULL
);

CREATE TABLE order_line (
  order_id INTEGER NOT NULL REFERENCES orders (order_id),
  isbn TEXT NOT NULL REFERENCES book (isbn),
  quantity INTEGER NOT NULL,
  PRIMARY KEY (order_id, isbn)
);
