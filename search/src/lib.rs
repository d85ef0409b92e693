//! # search — the Jiang engine's search (being written; see issue 4).
