//! The data format: positions survive a write and a read, and damaged
//! files give errors that say what and where.

use data::{DataErrorKind, Flags, Header, Outcome, Reader, Recipe, Record, Summary, RECORD_SIZE};
use movegen::{Move, Position, Variant};

/// A small deterministic generator for the random walks.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Positions of random games of `variant` with a legal move of each.
fn random_positions(variant: Variant, games: usize, seed: u64) -> Vec<(Position, Move)> {
    let mut rng = Lcg(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos(variant);
        for _ in 0..150 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.judge().is_over() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            out.push((pos.clone(), m));
            pos.make_move(m);
        }
    }
    out
}

fn file_of(variant: Variant, records: &[Record]) -> Vec<u8> {
    let mut bytes = Header::new(variant, Recipe::default()).encode().to_vec();
    for r in records {
        bytes.extend(r.encode());
    }
    bytes
}

fn read_all(bytes: &[u8]) -> Result<Vec<Record>, data::DataError> {
    Reader::new(bytes).collect()
}

#[test]
fn positions_round_trip() {
    for variant in [Variant::Xiangqi, Variant::Janggi, Variant::JanggiModern] {
        let positions = random_positions(variant, 6, 7);
        assert!(positions.len() > 300);
        let records: Vec<Record> = positions
            .iter()
            .enumerate()
            .map(|(i, (p, m))| {
                let score = (i as i16).wrapping_mul(37) % 3000 - 1500;
                let outcome = [Outcome::FirstWins, Outcome::Draw, Outcome::SecondWins][i % 3];
                Record::from_position(p, score, *m, outcome, i as u64 * 977, Flags::NONE)
            })
            .collect();
        let back = read_all(&file_of(variant, &records)).expect("a valid file");
        assert_eq!(back, records);
        for ((p, m), r) in positions.iter().zip(&back) {
            let q = r.to_position().expect("a legal position");
            assert_eq!(q.to_fen(), p.to_fen());
            assert_eq!(r.best, *m);
            assert_eq!(r.flags.contains(Flags::IN_CHECK), p.in_check());
            assert_eq!(
                r.flags.contains(Flags::CAPTURE),
                !m.is_pass() && p.piece_at(m.to()).is_some()
            );
            assert_eq!(usize::from(r.ply), p.history_len());
        }
    }
}

#[test]
fn counters_passes_and_mates_survive() {
    let fen = "4k4/9/9/9/9/9/9/9/4K4/9 b - - 199 321";
    let p = Position::from_fen(fen, Variant::JanggiModern).expect("a FEN");
    let pass = Move::pass(p.general(p.side_to_move()));
    let r = Record::from_position(
        &p,
        -31_990,
        pass,
        Outcome::SecondWins,
        u64::MAX,
        Flags::LAST,
    );
    let back = read_all(&file_of(Variant::JanggiModern, std::slice::from_ref(&r))).expect("valid");
    assert_eq!(back, [r]);
    assert!(back[0].best.is_pass());
    assert!(back[0].flags.contains(Flags::MATE | Flags::LAST));
    assert_eq!(back[0].result_for_side_to_move(), 1.0);
    assert_eq!(
        back[0].to_position().map(|p| p.to_fen()),
        Ok(fen.to_string())
    );
}

#[test]
fn concatenated_files_keep_each_segment_variant() {
    let x = random_positions(Variant::Xiangqi, 1, 3);
    let j = random_positions(Variant::Janggi, 1, 3);
    let rec =
        |(p, m): &(Position, Move)| Record::from_position(p, 0, *m, Outcome::Draw, 0, Flags::NONE);
    let mut bytes = file_of(Variant::Xiangqi, &x.iter().map(rec).collect::<Vec<_>>());
    bytes.extend(file_of(
        Variant::Janggi,
        &j.iter().map(rec).collect::<Vec<_>>(),
    ));
    let back = read_all(&bytes).expect("valid");
    assert_eq!(back.len(), x.len() + j.len());
    assert!(back[..x.len()]
        .iter()
        .all(|r| r.variant == Variant::Xiangqi));
    assert!(back[x.len()..].iter().all(|r| r.variant == Variant::Janggi));
}

#[test]
fn damaged_files_are_errors_that_say_where() {
    let positions = random_positions(Variant::Janggi, 1, 11);
    let records: Vec<Record> = positions
        .iter()
        .take(3)
        .map(|(p, m)| Record::from_position(p, 12, *m, Outcome::Draw, 1, Flags::NONE))
        .collect();
    let good = file_of(Variant::Janggi, &records);
    let kind = |bytes: &[u8]| read_all(bytes).map_err(|e| (e.offset, e.kind));

    assert_eq!(kind(&[]), Err((0, DataErrorKind::Empty)));
    let text = b"[Event \"a PGN file, not data\"]\n".repeat(4);
    assert_eq!(kind(&text), Err((0, DataErrorKind::NotDataFile)));
    // Cut inside the header, inside a record, and at a record boundary.
    assert_eq!(kind(&good[..20]), Err((0, DataErrorKind::Truncated(20))));
    let cut = RECORD_SIZE * 2 + 5;
    assert_eq!(
        kind(&good[..cut]),
        Err((2 * RECORD_SIZE as u64, DataErrorKind::Truncated(5)))
    );
    assert_eq!(read_all(&good[..RECORD_SIZE * 3]).map(|r| r.len()), Ok(2));
    // Damaged fields.
    let mut b = good.clone();
    b[12] = 9;
    assert_eq!(kind(&b), Err((0, DataErrorKind::Version(9))));
    let mut b = good.clone();
    b[16] = 77;
    assert_eq!(kind(&b), Err((0, DataErrorKind::Variant(77))));
    let mut b = good.clone();
    b[RECORD_SIZE + 12] &= 0xf0; // the first piece's code becomes 0
    assert!(matches!(kind(&b), Err((48, DataErrorKind::BadRecord(_)))));
    let mut b = good.clone();
    b[RECORD_SIZE + 29] = 3; // no such result
    assert!(matches!(kind(&b), Err((48, DataErrorKind::BadRecord(_)))));
    let mut b = good.clone();
    b[2 * RECORD_SIZE] = 0; // two points emptied: the pieces shift
    b[2 * RECORD_SIZE + 1] = 0;
    assert!(kind(&b).is_err());
    // Random bytes after a valid header never panic.
    let mut rng = Lcg(5);
    for _ in 0..200 {
        let mut b = good.clone();
        for _ in 0..8 {
            let i = RECORD_SIZE + rng.below(b.len() - RECORD_SIZE);
            b[i] = rng.below(256) as u8;
        }
        let _ = read_all(&b);
    }
}

#[test]
fn summary_counts_games_results_and_positions() {
    let positions = random_positions(Variant::Xiangqi, 1, 2);
    let mut records = Vec::new();
    for (game, outcome) in [(0u64, Outcome::FirstWins), (1, Outcome::Draw)] {
        let n = 5;
        for (i, (p, m)) in positions.iter().take(n).enumerate() {
            let last = if i + 1 == n { Flags::LAST } else { Flags::NONE };
            records.push(Record::from_position(p, 40, *m, outcome, game, last));
        }
    }
    let mut s = Summary::new();
    for r in read_all(&file_of(Variant::Xiangqi, &records)).expect("valid") {
        s.add(&r);
    }
    assert_eq!((s.games(), s.positions()), (2, 10));
    // The second game repeats the first game's five positions.
    assert_eq!(s.duplicates(Variant::Xiangqi), 5);
    assert_eq!(s.duplicates(Variant::Janggi), 0);
    assert_eq!(
        s.results(Variant::Xiangqi),
        [
            (Outcome::FirstWins, 1),
            (Outcome::Draw, 1),
            (Outcome::SecondWins, 0)
        ]
    );
    let text = s.to_string();
    assert!(
        text.starts_with("2 games, 10 positions\nxiangqi:\n"),
        "{text}"
    );
    assert!(
        text.contains("first player 1 won (50.0%), 1 drawn"),
        "{text}"
    );
    assert!(
        text.contains("5 positions (50.0%) stand earlier in the data (same board and side to move); 5 distinct"),
        "{text}"
    );
}
