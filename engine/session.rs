//! What every protocol front-end shares: the current game position, the
//! option values, the search engine, and the rules for driving it safely.
//!
//! The search engine's setters may only be called while no search runs,
//! so option changes are stored in [`Settings`] and pushed into the engine
//! just before the next search starts ([`Session::go`]), after any running
//! search has been stopped and joined. A `position`, `setoption` or
//! `ucinewgame` arriving mid-search therefore never disturbs that search.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use movegen::{ByGame, Game, Position, Ranks, Variant};
use search::{BestMove, Engine, HashError, Limits, Network, SearchInfo};

use crate::commands;
use crate::io::Out;
use crate::options::{Dialect, Effect, OptionError, OptionId, Settings};

/// Engine values last pushed into the search engine.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Applied {
    threads: usize,
    hash_mb: usize,
    multipv: usize,
    overhead_ms: u64,
}

/// Shared state of one protocol session.
pub struct Session {
    /// Protocol output.
    pub out: Out,
    /// Prefix of notes and error messages (`info string ` for UCI and
    /// UCCI, `# ` for XBoard, whose GUIs ignore lines starting with `#`).
    pub note_prefix: &'static str,
    /// Option values.
    pub settings: Settings,
    /// The game position, with the moves played since its FEN.
    pub pos: Position,
    engine: Engine,
    applied: Option<Applied>,
    clear_pending: bool,
    new_game_pending: bool,
    /// Number of the latest `go`, so late results of older searches can
    /// be told apart.
    search_id: u64,
    perft_job: Option<JoinHandle<()>>,
    /// Set while a perft runs; cleared under the output lock just before
    /// its lines are written, so a client that has read `Nodes searched`
    /// can start the next perft at once.
    perft_busy: Arc<AtomicBool>,
    /// The network each game's file option (`EvalFile`,
    /// `EvalFileJanggi`) loaded; `None`: the option is empty, so the game
    /// plays its embedded network ([`Network::embedded`], one copy per
    /// process). The search uses them when `Use NNUE` is on.
    user_networks: ByGame<Option<Arc<Network>>>,
    /// Tunable search parameters set since the last search, applied with
    /// the other settings (tuning builds only).
    #[cfg(feature = "tune")]
    tunables_pending: Vec<(search::params::Param, Game, i32)>,
    /// Seed of a weakened level's move draw while `Skill Seed` is 0:
    /// taken from the clock at start, so that games against a person
    /// differ from run to run; a set `Skill Seed` makes them repeatable.
    session_seed: u64,
}

/// Why a `position` command was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Neither `startpos` nor `fen`.
    Syntax(String),
    /// The FEN does not describe a playable position.
    Fen(movegen::FenError),
    /// A move in the list is malformed or illegal (1-based index).
    Move(usize, movegen::MoveError),
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::Syntax(s) => write!(f, "{s}"),
            PositionError::Fen(e) => write!(f, "{e}"),
            PositionError::Move(i, e) => write!(f, "move {i}: {e}"),
        }
    }
}

impl std::error::Error for PositionError {}

impl Session {
    /// A session in the Xiangqi start position with default options.
    pub fn new(out: Out) -> Session {
        Session {
            out,
            note_prefix: "info string ",
            settings: Settings::default(),
            pos: Position::startpos(Variant::Xiangqi),
            engine: Engine::new(),
            applied: None,
            clear_pending: false,
            new_game_pending: false,
            search_id: 0,
            perft_job: None,
            perft_busy: Arc::default(),
            user_networks: ByGame::default(),
            #[cfg(feature = "tune")]
            tunables_pending: Vec::new(),
            session_seed: clock_seed(),
        }
    }

    /// The network loaded for `game` (the user's file, else the
    /// embedded one), whether or not the search uses it.
    pub fn network(&self, game: Game) -> Option<Arc<Network>> {
        self.user_networks[game]
            .clone()
            .or_else(|| Network::embedded(game))
    }

    /// The network the search evaluates `game` with: the loaded one when
    /// `Use NNUE` is on.
    fn active_network(&self, game: Game) -> Option<Arc<Network>> {
        self.network(game).filter(|_| self.settings.use_nnue)
    }

    /// Load the network named by `game`'s file option (empty: back to
    /// the embedded one). On any error the previous network stays.
    fn load_network(&mut self, game: Game) -> Result<Arc<Network>, String> {
        let path = self.settings.eval_file(game);
        if path.is_empty() {
            self.user_networks[game] = None;
            return Network::embedded(game)
                .ok_or_else(|| format!("no {} network is embedded", nnue::game_name(game)));
        }
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        let net = Network::from_bytes_for(&bytes, game).map_err(|e| e.to_string())?;
        let net = Arc::new(net);
        self.user_networks[game] = Some(Arc::clone(&net));
        Ok(net)
    }

    /// With `Use NNUE` on and no network for the game played, say that
    /// the classical evaluation is used.
    fn note_missing_network(&self) {
        let game = self.settings.variant.game();
        if self.settings.use_nnue && self.network(game).is_none() {
            let option = match game {
                Game::Xiangqi => OptionId::EvalFile,
                Game::Janggi => OptionId::EvalFileJanggi,
            };
            self.note(&format!(
                "Use NNUE: no {} network loaded (set {}); using the classical evaluation",
                nnue::game_name(game),
                option.row().name()
            ));
        }
    }

    /// A note or error message in the protocol's own form.
    pub fn note(&self, text: &str) {
        self.out.line(&format!("{}{text}", self.note_prefix));
    }

    /// The commands every protocol has besides its own: `d`, `eval`,
    /// `bench`, `result`, `perft N`, `divide N`. Returns false when `cmd`
    /// is none of them.
    pub fn extension(&mut self, cmd: &str, args: &[&str], ranks: Ranks) -> bool {
        match cmd {
            "d" | "display" => self.out.lines(commands::display(&self.pos, ranks)),
            "eval" => {
                let game = self.pos.variant().game();
                let net = self.network(game);
                let net = net.as_deref().map(|n| (n, self.settings.use_nnue));
                self.out.lines(commands::eval_lines(&self.pos, net));
            }
            "result" => self.note(&commands::result_text(&self.pos)),
            "bench" => {
                if let Err(e) = self.bench(args) {
                    self.note(&format!("error: {e}"));
                }
            }
            "perft" | "divide" => match parse_depth(args.first().copied()) {
                Ok(d) => self.perft(d, ranks),
                Err(e) => self.note(&format!("error: {e}")),
            },
            _ => return false,
        }
        true
    }

    /// Set the option a protocol calls `name`. On error nothing changes
    /// and the error names the option as the protocol spells it.
    pub fn set_option(
        &mut self,
        name: &str,
        value: &str,
        dialect: Dialect,
    ) -> Result<Effect, OptionError> {
        let name = name.trim();
        #[cfg(feature = "tune")]
        if dialect == Dialect::Uci {
            if let Some((p, game)) = crate::options::tunables::find(name) {
                return self.set_tunable(p, game, value, name);
            }
        }
        let id =
            OptionId::find(name, dialect).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        self.set_option_as(id, value, name)
    }

    /// Set a tunable search parameter (a tuning build's UCI option);
    /// like every setting it reaches the search between searches.
    #[cfg(feature = "tune")]
    fn set_tunable(
        &mut self,
        p: search::params::Param,
        game: Game,
        value: &str,
        name: &str,
    ) -> Result<Effect, OptionError> {
        let v = crate::options::tunables::parse(p, game, value).map_err(|e| e.named(name))?;
        self.tunables_pending.push((p, game, v));
        let applied = self.apply_if_idle();
        self.note_hash_error(applied);
        Ok(Effect::None)
    }

    /// Set an option by id (XBoard's `memory`, `cores`), named in errors
    /// by its table name.
    pub fn set_option_id(&mut self, id: OptionId, value: &str) -> Result<Effect, OptionError> {
        self.set_option_as(id, value, id.row().name())
    }

    /// Store a value and act on it: a variant change resets the position
    /// to its start, a new game resets the game. When no search runs the
    /// engine takes the new values now, so a hash size the machine cannot
    /// provide is an error here (the old size stays).
    fn set_option_as(
        &mut self,
        id: OptionId,
        value: &str,
        name: &str,
    ) -> Result<Effect, OptionError> {
        let before = self.settings.clone();
        let effect = self.settings.set(id, value).map_err(|e| e.named(name))?;
        match effect {
            Effect::ClearHash => self.clear_pending = true,
            // No note about a missing network here: `Use NNUE` is on by
            // default, and a GUI choosing a game whose network failed to
            // load should not get a line about it at every game.
            Effect::Variant => self.pos = Position::startpos(self.settings.variant),
            Effect::NewGame => self.new_game(),
            // Only a change to on is news: setting the default again (as
            // GUIs do at every start) stays silent.
            Effect::UseNnue if !before.use_nnue => self.note_missing_network(),
            Effect::UseNnue => {}
            Effect::Network(game) => match self.load_network(game) {
                Ok(net) => self.note(&format!(
                    "{name}: loaded the {} network {:?}",
                    nnue::game_name(game),
                    net
                )),
                Err(_) if self.settings.eval_file(game).is_empty() => {
                    // No file and none embedded: back to no network, the
                    // default for a game without an embedded one, so no
                    // note (GUIs send every default at start).
                }
                Err(reason) => {
                    let path = self.settings.eval_file(game).to_string();
                    self.settings = before;
                    return Err(OptionError::Network {
                        name: name.to_string(),
                        path,
                        reason,
                    });
                }
            },
            Effect::None => {}
        }
        match self.apply_if_idle() {
            Err(error) if id == OptionId::Hash => {
                return Err(OptionError::Hash {
                    name: name.to_string(),
                    error,
                })
            }
            // A hash size set during the last search, applied only now:
            // its own error line, this option is set all the same.
            other => self.note_hash_error(other),
        }
        Ok(effect)
    }

    /// Change the variant (XBoard `variant`, UCI_Variant without the rank
    /// switch) and reset to its start position.
    pub fn set_variant(&mut self, v: Variant) {
        self.settings.variant = v;
        self.pos = Position::startpos(v);
        // No note about a missing network: with `Use NNUE` on by default
        // every game of a variant without one would start with it.
    }

    /// A new game starts (UCI `ucinewgame`, UCCI `newgame`, XBoard `new`):
    /// the position goes back to the variant's start, and the hash and
    /// the search's history tables are cleared before the next search.
    pub fn new_game(&mut self) {
        self.pos = Position::startpos(self.settings.variant);
        self.new_game_pending = true;
        let applied = self.apply_if_idle();
        self.note_hash_error(applied);
    }

    /// Parse `startpos [moves …]` or `fen <FEN> [moves …]` (the words
    /// after `position`). All or nothing: on any error the previous
    /// position stays.
    pub fn set_position(&mut self, args: &str, ranks: Ranks) -> Result<(), PositionError> {
        self.pos = self.parse_position(args, ranks)?;
        Ok(())
    }

    /// The position `args` describe, without changing the session.
    pub fn parse_position(&self, args: &str, ranks: Ranks) -> Result<Position, PositionError> {
        let words: Vec<&str> = args.split_whitespace().collect();
        let moves_at = words.iter().position(|w| w.eq_ignore_ascii_case("moves"));
        let (head, moves) = match moves_at {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (&words[..], &[][..]),
        };
        let variant = self.settings.variant;
        let mut pos = match head.first().map(|w| w.to_ascii_lowercase()) {
            Some(w) if w == "startpos" && head.len() == 1 => Position::startpos(variant),
            Some(w) if w == "startpos" => {
                return Err(PositionError::Syntax(format!(
                    "unexpected '{}' after startpos",
                    head[1..].join(" ")
                )))
            }
            Some(w) if w == "fen" => {
                if head.len() < 2 {
                    return Err(PositionError::Syntax("position fen: missing FEN".into()));
                }
                Position::from_fen(&head[1..].join(" "), variant).map_err(PositionError::Fen)?
            }
            _ => {
                return Err(PositionError::Syntax(
                    "position: expected 'startpos' or 'fen <FEN>'".into(),
                ))
            }
        };
        pos.play_text_moves(moves.iter().copied(), ranks)
            .map_err(|(i, e)| PositionError::Move(i + 1, e))?;
        Ok(pos)
    }

    /// Whether a search is running.
    pub fn searching(&self) -> bool {
        self.engine.is_searching()
    }

    /// Ask the running search (if any) to stop; its `on_done` reports the
    /// result. Returns at once.
    pub fn stop(&self) {
        self.engine.stop();
    }

    /// Tell a pondering search that the expected move was played.
    pub fn ponderhit(&self) {
        self.engine.ponderhit();
    }

    /// Stop the running search and wait until its threads have finished
    /// (its `on_done` has run by then).
    pub fn stop_and_wait(&mut self) {
        self.engine.stop();
        self.engine.wait();
        let applied = self.apply_pending();
        self.note_hash_error(applied);
    }

    /// Wait for a search to end by itself.
    pub fn wait(&mut self) {
        self.engine.wait();
    }

    /// A hash size set during a search that the machine could not provide
    /// is reported when it is applied, as an ordinary error line.
    fn note_hash_error(&self, applied: Result<(), HashError>) {
        if let Err(error) = applied {
            let name = OptionId::Hash.row().name().to_string();
            self.note(&format!("error: {}", OptionError::Hash { name, error }));
        }
    }

    fn apply_if_idle(&mut self) -> Result<(), HashError> {
        if self.engine.is_searching() {
            return Ok(());
        }
        // A search that ended by itself may still need joining.
        self.engine.wait();
        self.apply_pending()
    }

    /// Push changed settings into the engine (no search may be running).
    /// A hash size that cannot be allocated is taken back out of the
    /// settings, so they always say what the engine has.
    fn apply_pending(&mut self) -> Result<(), HashError> {
        let s = &self.settings;
        let mut want = Applied {
            threads: s.threads,
            hash_mb: s.hash_mb,
            multipv: s.multipv,
            overhead_ms: s.move_overhead_ms,
        };
        let old = self.applied;
        let mut result = Ok(());
        if old.map(|a| a.hash_mb) != Some(want.hash_mb) {
            if let Err(e) = self.engine.try_set_hash_mb(want.hash_mb) {
                want.hash_mb = e.kept_mb;
                self.settings.hash_mb = e.kept_mb;
                result = Err(e);
            }
        }
        if old.map(|a| a.threads) != Some(want.threads) {
            self.engine.set_threads(want.threads);
        }
        if old.map(|a| a.multipv) != Some(want.multipv) {
            self.engine.set_multipv(want.multipv);
        }
        if old.map(|a| a.overhead_ms) != Some(want.overhead_ms) {
            self.engine.set_move_overhead_ms(want.overhead_ms);
        }
        #[cfg(feature = "tune")]
        for (p, game, v) in self.tunables_pending.drain(..) {
            // Checked against the range when it was set.
            let _ = search::params::set(p, game, v);
        }
        // A plain store, read by the next `go`.
        self.engine
            .set_skill(self.settings.skill(self.session_seed));
        // Cheap when nothing changed (the engine compares pointers).
        for game in Game::ALL {
            let net = self.active_network(game);
            self.engine.set_network(game, net);
        }
        self.applied = Some(want);
        if self.new_game_pending {
            self.engine.new_game();
            self.new_game_pending = false;
            self.clear_pending = false;
        }
        if self.clear_pending {
            self.engine.clear_hash();
            self.clear_pending = false;
        }
        result
    }

    /// Start a search of the current position. A search still running is
    /// stopped and joined first (its result is still reported). Returns
    /// the new search's number, also passed to `on_done` by callers that
    /// need it.
    pub fn go(
        &mut self,
        limits: Limits,
        on_info: Box<dyn FnMut(&SearchInfo) + Send>,
        on_done: Box<dyn FnOnce(BestMove) + Send>,
    ) -> u64 {
        self.go_from(None, limits, on_info, on_done)
    }

    /// [`Session::go`] from another position than the game's (pondering
    /// on an expected move, UCCI `probe`).
    pub fn go_from(
        &mut self,
        pos: Option<&Position>,
        limits: Limits,
        on_info: Box<dyn FnMut(&SearchInfo) + Send>,
        on_done: Box<dyn FnOnce(BestMove) + Send>,
    ) -> u64 {
        self.stop_and_wait();
        self.search_id += 1;
        let pos = pos.unwrap_or(&self.pos).clone();
        self.engine.go(&pos, limits, on_info, on_done);
        self.search_id
    }

    /// The search's hash-table entry for a position.
    pub fn probe_hash(&self, pos: &Position) -> Option<search::HashEntry> {
        self.engine.probe_hash(pos)
    }

    /// Number of the latest search.
    pub fn search_id(&self) -> u64 {
        self.search_id
    }

    /// Run perft/divide on a worker thread so that the protocol keeps
    /// answering; output goes to `out` when done.
    pub fn perft(&mut self, depth: u32, ranks: Ranks) {
        // One perft at a time; refusing (rather than waiting) keeps the
        // protocol loop responsive.
        if self.perft_busy.load(Ordering::Acquire) {
            self.note("error: a perft is still running");
            return;
        }
        // The previous job has printed everything; it only has to return.
        if let Some(old) = self.perft_job.take() {
            let _ = old.join();
        }
        let pos = self.pos.clone();
        let threads = self.settings.threads;
        let out = self.out.clone();
        let busy = Arc::clone(&self.perft_busy);
        busy.store(true, Ordering::Release);
        let job = std::thread::Builder::new()
            .name("perft".into())
            .spawn(move || {
                let d = commands::divide(&pos, depth, threads, ranks);
                // Clear the flag under the output lock before the lines go
                // out (stdout flushes each line): a client that has read
                // them can start the next perft, and a new perft cannot
                // print first.
                out.lines_after(
                    || busy.store(false, Ordering::Release),
                    commands::divide_lines(&d),
                );
            });
        match job {
            Ok(h) => self.perft_job = Some(h),
            Err(e) => {
                self.perft_busy.store(false, Ordering::Release);
                self.note(&format!("error: cannot start perft: {e}"));
            }
        }
    }

    /// Wait for a running perft, so that its count is printed before the
    /// process exits (after `quit` or at the end of input).
    pub fn finish_perft(&mut self) {
        if let Some(job) = self.perft_job.take() {
            let _ = job.join();
        }
    }

    /// Run the benchmark synchronously (`bench [depth] [threads] [hash]`).
    pub fn bench(&mut self, args: &[&str]) -> Result<(), String> {
        // Same ranges as the options; the benchmark blocks this loop, so
        // it bounds the depth itself (`search::bench::MAX_DEPTH`).
        let depth = parse_opt::<u32>(args.first(), "depth")?;
        let threads = parse_opt::<usize>(args.get(1), "threads")?
            .unwrap_or(search::DEFAULT_THREADS)
            .clamp(1, search::MAX_THREADS);
        let hash = parse_opt::<usize>(args.get(2), "hash")?
            .unwrap_or(search::DEFAULT_HASH_MB)
            .clamp(1, search::MAX_HASH_MB);
        self.stop_and_wait();
        let mut w = self.out.writer();
        // With `Use NNUE` on, the networks' speed and node count.
        let networks = ByGame::from_fn(|game| self.active_network(game));
        search::bench_with_networks(depth, threads, hash, networks, &mut w);
        Ok(())
    }
}

/// A non-zero seed from the system clock (a clock before 1970 gives a
/// fixed one: the draw is then merely repeatable).
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos.max(1)
}

fn parse_opt<T: std::str::FromStr>(w: Option<&&str>, what: &str) -> Result<Option<T>, String> {
    match w {
        None => Ok(None),
        Some(t) => t
            .parse()
            .map(Some)
            .map_err(|_| format!("bench: bad {what} '{t}'")),
    }
}

/// Parse a perft depth (1 to [`commands::MAX_PERFT_DEPTH`]).
pub fn parse_depth(w: Option<&str>) -> Result<u32, String> {
    let max = commands::MAX_PERFT_DEPTH;
    match w.map(str::parse::<u32>) {
        Some(Ok(d)) if (1..=max).contains(&d) => Ok(d),
        Some(_) => Err(format!("perft: depth must be a number from 1 to {max}")),
        None => Err("perft: missing depth".into()),
    }
}
