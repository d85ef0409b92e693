//! Tests of the option table and the settings it changes.

use super::text::{split_setoption, ucci_lines, uci_lines, xboard_lines};
use super::*;

const IDS: [OptionId; 20] = [
    OptionId::UseMillisec,
    OptionId::Threads,
    OptionId::Hash,
    OptionId::ClearHash,
    OptionId::Ponder,
    OptionId::MultiPv,
    OptionId::SkillLevel,
    OptionId::LimitStrength,
    OptionId::UciElo,
    OptionId::SkillSeed,
    OptionId::MoveOverhead,
    OptionId::UciVariant,
    OptionId::UciShowWdl,
    OptionId::UciRanks,
    OptionId::ResignScore,
    OptionId::DrawScore,
    OptionId::UseNnue,
    OptionId::EvalFile,
    OptionId::EvalFileJanggi,
    OptionId::NewGame,
];

#[test]
fn every_row_is_reachable_by_its_names() {
    assert_eq!(IDS.len(), OPTIONS.len());
    for id in IDS {
        let row = id.row();
        assert_eq!(row.id, id);
        assert!(
            row.uci.is_some() || row.ucci.is_some(),
            "{id:?} has no name"
        );
        for dialect in [Dialect::Uci, Dialect::Ucci] {
            if let Some(name) = row.name_in(dialect) {
                assert_eq!(OptionId::find(name, dialect), Some(id));
                let shouted = format!("  {} ", name.to_ascii_uppercase());
                assert_eq!(OptionId::find(&shouted, dialect), Some(id));
            }
        }
    }
    // A name from one dialect is not one of the other's.
    assert_eq!(OptionId::find("hashsize", Dialect::Uci), None);
    assert_eq!(OptionId::find("Move Overhead", Dialect::Ucci), None);
    assert_eq!(OptionId::find("usemillisec", Dialect::Uci), None);
}

#[test]
fn defaults_are_the_tables() {
    let s = Settings::default();
    for row in OPTIONS {
        assert_eq!(s.value_text(row.id), row.kind.default_text(), "{}", row.id);
    }
}

#[test]
fn limits_are_the_searchs() {
    let spin = |id: OptionId| match id.row().kind {
        Kind::Spin { default, min, max } => (default, min, max),
        k => panic!("{id} is {k:?}"),
    };
    assert_eq!(spin(OptionId::Threads), (1, 1, search::MAX_THREADS as i64));
    assert_eq!(
        spin(OptionId::Hash),
        (
            search::DEFAULT_HASH_MB as i64,
            1,
            search::MAX_HASH_MB as i64
        )
    );
    assert_eq!(spin(OptionId::MultiPv), (1, 1, search::MAX_MULTIPV as i64));
    assert_eq!(
        spin(OptionId::MoveOverhead),
        (
            search::DEFAULT_MOVE_OVERHEAD_MS as i64,
            0,
            search::MAX_MOVE_OVERHEAD_MS as i64
        )
    );
}

#[test]
fn spins_accept_their_limits_and_refuse_beyond() {
    for row in OPTIONS {
        let Kind::Spin { min, max, .. } = row.kind else {
            continue;
        };
        let mut s = Settings::default();
        assert_eq!(s.set(row.id, &max.to_string()), Ok(Effect::None));
        assert_eq!(s.value_text(row.id), max.to_string());
        assert_eq!(s.set(row.id, &min.to_string()), Ok(Effect::None));
        let before = s.clone();
        for bad in [
            (max + 1).to_string(),
            (min - 1).to_string(),
            "x".into(),
            String::new(),
        ] {
            assert!(s.set(row.id, &bad).is_err(), "{} {bad}", row.id);
            assert_eq!(s, before, "{} changed by '{bad}'", row.id);
        }
    }
}

#[test]
fn set_and_reject() {
    let mut s = Settings::default();
    assert_eq!(s.set(OptionId::Hash, "64"), Ok(Effect::None));
    assert_eq!(s.hash_mb, 64);
    let err = s.set(OptionId::Hash, "0").map_err(|e| e.named("hashsize"));
    assert!(
        matches!(&err, Err(OptionError::BadValue { name, .. }) if name == "hashsize"),
        "{err:?}"
    );
    assert_eq!(s.hash_mb, 64);
    assert_eq!(s.uci_ranks(), Ranks::ZeroBased);
    assert_eq!(s.set(OptionId::UciVariant, "Janggi"), Ok(Effect::Variant));
    assert_eq!(s.uci_ranks(), Ranks::OneBased);
    assert_eq!(s.set(OptionId::UciRanks, "0"), Ok(Effect::None));
    assert_eq!(s.uci_ranks(), Ranks::ZeroBased);
    assert!(s.set(OptionId::UciRanks, "2").is_err());
    assert_eq!(s.set(OptionId::ClearHash, ""), Ok(Effect::ClearHash));
    assert_eq!(s.set(OptionId::NewGame, ""), Ok(Effect::NewGame));
    assert_eq!(s.set(OptionId::UseMillisec, "off"), Ok(Effect::None));
    assert!(!s.use_millisec);
    assert!(s.set(OptionId::Ponder, "maybe").is_err());
    assert!(s.set(OptionId::UciVariant, "chess").is_err());
    assert_eq!(s.set(OptionId::ResignScore, "300"), Ok(Effect::None));
    assert_eq!(s.end.resign_cp, 300);
}

#[test]
fn announcements_come_from_the_table() {
    let uci = uci_lines();
    // A tuning build adds an option per search parameter and game.
    let tunables = if cfg!(feature = "tune") {
        2 * search::params::COUNT
    } else {
        0
    };
    assert_eq!(
        uci.len(),
        OPTIONS.iter().filter(|r| r.uci.is_some()).count() + tunables
    );
    assert!(uci.contains(&format!(
        "option name Hash type spin default {} min 1 max {}",
        search::DEFAULT_HASH_MB,
        search::MAX_HASH_MB
    )));
    assert!(uci.contains(&"option name Clear Hash type button".to_string()));
    let ucci = ucci_lines();
    assert_eq!(ucci[0], "option usemillisec type check default true");
    assert!(ucci.contains(&format!(
        "option hashsize type spin min 1 max {} default {}",
        search::MAX_HASH_MB,
        search::DEFAULT_HASH_MB
    )));
    assert!(ucci.contains(&"option newgame type button".to_string()));
    let s = Settings::default();
    let xb = xboard_lines(|id| s.value_text(id));
    assert_eq!(xb.len(), OPTIONS.iter().filter(|r| r.xboard).count());
    assert!(xb.contains(&"feature option=\"Move Overhead -spin 10 0 5000\"".to_string()));
    assert!(!xb.iter().any(|l| l.contains("Hash -spin")));
}

#[test]
fn tolerant_setoption() {
    let p = split_setoption;
    assert_eq!(p("name Hash value 64"), Some(("Hash".into(), "64".into())));
    assert_eq!(p("Threads 4"), Some(("Threads".into(), "4".into())));
    assert_eq!(
        p("name Clear Hash"),
        Some(("Clear Hash".into(), String::new()))
    );
    assert_eq!(p("Clear Hash"), Some(("Clear Hash".into(), String::new())));
    assert_eq!(
        p("name Move Overhead value 30"),
        Some(("Move Overhead".into(), "30".into()))
    );
    assert_eq!(
        p("Move Overhead 30"),
        Some(("Move Overhead".into(), "30".into()))
    );
    assert_eq!(p(""), None);
}

#[test]
fn network_options() {
    let mut s = Settings::default();
    assert!(s.use_nnue, "on by default");
    assert_eq!(s.set(OptionId::UseNnue, "false"), Ok(Effect::UseNnue));
    assert!(!s.use_nnue);
    assert_eq!(s.set(OptionId::UseNnue, "true"), Ok(Effect::UseNnue));
    assert!(s.use_nnue);
    assert_eq!(
        s.set(OptionId::EvalFile, " /tmp/x.jnn "),
        Ok(Effect::Network(Game::Xiangqi))
    );
    assert_eq!(s.eval_file(Game::Xiangqi), "/tmp/x.jnn");
    assert_eq!(
        s.set(OptionId::EvalFileJanggi, "j.jnn"),
        Ok(Effect::Network(Game::Janggi))
    );
    assert_eq!(s.value_text(OptionId::EvalFileJanggi), "j.jnn");
    assert_eq!(
        s.set(OptionId::EvalFile, "<empty>"),
        Ok(Effect::Network(Game::Xiangqi))
    );
    assert_eq!(s.eval_file, "");
    let uci = uci_lines();
    assert!(uci.contains(&"option name Use NNUE type check default true".to_string()));
    assert!(uci.contains(&"option name EvalFile type string default <empty>".to_string()));
    let ucci = ucci_lines();
    assert!(ucci.contains(&"option evalfilejanggi type string default <empty>".to_string()));
    let xb = xboard_lines(|id| s.value_text(id));
    assert!(xb.contains(&"feature option=\"EvalFileJanggi -file j.jnn\"".to_string()));
    assert!(xb.contains(&"feature option=\"Use NNUE -check 1\"".to_string()));
}

#[test]
fn strength_options_give_the_skill() {
    let mut s = Settings::default();
    assert!(s.skill(5).is_full(), "full strength by default");
    s.set(OptionId::LimitStrength, "true").unwrap();
    assert!(s.skill(5).is_full(), "UCI_Elo's default is full strength");
    s.set(OptionId::SkillLevel, "3").unwrap();
    assert!(
        s.skill(5).is_full(),
        "UCI_LimitStrength overrides Skill Level"
    );
    let min = search::skill::MIN_ELO.to_string();
    s.set(OptionId::UciElo, &min).unwrap();
    assert_eq!(
        s.skill(5).level(),
        search::skill::level_for_elo(search::skill::MIN_ELO)
    );
    s.set(OptionId::LimitStrength, "false").unwrap();
    assert_eq!(s.skill(5).level(), 3.0);
    assert_eq!(s.skill(5).seed(), 5, "Skill Seed 0: the session's seed");
    s.set(OptionId::SkillSeed, "77").unwrap();
    assert_eq!(s.skill(5).seed(), 77);
    for (id, bad) in [
        (OptionId::SkillLevel, "21"),
        (OptionId::SkillLevel, "1.5"),
        (OptionId::UciElo, "abc"),
        (OptionId::SkillSeed, "-1"),
        (OptionId::LimitStrength, "2"),
    ] {
        let before = s.clone();
        assert!(s.set(id, bad).is_err(), "{id} {bad}");
        assert_eq!(s, before, "{id} {bad}: the old value stays");
    }
}
