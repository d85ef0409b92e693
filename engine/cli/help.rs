//! The help texts of the command line: one overview and one text per
//! command, so `jiang help perft` and `jiang perft --help` say the same.

/// The overview printed by `jiang help` and `jiang --help`.
pub const OVERVIEW: &str = "\
usage: jiang [COMMAND [ARGS...]]

With no command, jiang is an engine for a GUI or match tool: it speaks UCI,
UCCI or XBoard on standard input, chosen by the first line (uci, ucci,
xboard).

commands:
  perft    count the positions reachable in N moves
  bench    search a fixed set of positions; prints the node count and speed
  match    play engine matches (cutechess-cli's options)
  datagen  self-play training positions at a fixed node budget
  tune     fit the evaluation to games (PGN) or training positions
  spsa     tune the search's parameters by games (SPSA; tuning build)
  train    train a network (NNUE) on training positions
  help     this text; `jiang help COMMAND` explains one command

options:
  -h, --help       this text
  -V, --version    the version";

const PERFT: &str = "\
usage: jiang perft N [--fen FEN] [--variant V] [--setup CHO-HAN]
                     [--threads T] [--divide] [--ranks 0|1]

Counts the positions reachable in exactly N moves (1 to 12).
  --fen FEN          start from this position (default: the variant's start)
  --variant V        xiangqi (default), janggi, janggitraditional,
                     janggimodern, janggicasual
  --setup CHO-HAN    a Janggi start by its horse/elephant arrangements, each
                     of nbbn, nbnb, bnbn, bnnb (e.g. nbbn-bnnb)
  --threads T        worker threads (default: all cores)
  --divide           print the count under each first move
  --ranks 0|1        ranks of the --divide moves: 0-9 (default) or 1-10
Prints `Nodes searched: N` on stdout, the time and speed on stderr.";

const BENCH: &str = "\
usage: jiang bench [DEPTH [THREADS [HASH]]]

Searches a fixed list of Xiangqi and Janggi positions to DEPTH (default 11),
at most 30, with THREADS threads (default 1) and HASH MiB of hash
(default 16), then prints the total node count, which is the same on
every run with one thread, and the speed.";

const DATAGEN: &str = "\
usage: jiang datagen --out FILE [--variant V] [--games N] [--nodes N]
                     [--threads N] [--seed S] [--randomplies N] [--shard I/N]
                     [--win-score CP] [--win-plies N] [--max-plies N]
                     [--eval-file NET | --classical] [--quiet]
       jiang datagen --stats FILE...

Plays the search against itself from random openings and writes every
position it moved from, with its score, best move, the game's result and
the game's number, to FILE (binary format: the data crate's documentation; docs/TRAINING.md).
  --variant V        xiangqi (default), janggi, janggitraditional,
                     janggimodern, janggicasual
  --games N          games of the whole run, all shards (default 100)
  --nodes N          nodes searched per move (default 5000)
  --threads N        games played at once (default: all cores)
  --seed S           game k depends on S and k only (default 1): the file is
                     the same for any --threads
  --randomplies N    random quiet plies of each opening, after a random
                     Janggi setup (default 8)
  --shard I/N        play only the games k with k % N = I; the shards' files
                     concatenated (cat) hold the games of one whole run
  --win-score CP     a side wins when the score says it is CP ahead ...
  --win-plies N      ... for N plies in a row (defaults 1000 and 6; 0: off)
  --max-plies N      end a game after N searched plies (default 400; 0: off):
                     a draw, or Janggi counting where the rule set counts
  --eval-file NET    search with this network file (default: the game's
                     embedded network, as `Use NNUE` is on by default; the
                     classical evaluation for a game without one)
  --classical        search with the classical evaluation
  --quiet            no progress line (games, positions, positions/s, ETA)
Rerunning the same command continues FILE after its last complete game.
  --stats FILE...    games, positions, results, plies per game, flags,
                     repeated positions and a score histogram per variant";

const TUNE: &str = "\
usage: jiang tune [--variant V] [--lambda L] [--passes N] [--every N]
                  [--player NAME] [--freeze GROUP,...] [--holdout N] FILES...

Fits the evaluation parameters of one game (janggi by default) to the
results and engine scores of the games in the files: PGN, as
`jiang match -pgnout` writes them, or training positions of `jiang
datagen` (told apart by their first bytes). Prints the parameters as Rust
source.
  --lambda L      weight of the game result against the score, 0 to 1
                  (default 0.5)
  --passes N      most passes over the parameters (default 6)
  --every N       keep every N-th position (default 1)
  --player NAME   keep only positions where this player was to move (PGN)
  --freeze G,...  leave these parameter groups as they are (material, pst,
                  mobility, king, chariots, crowd, palace, threats,
                  pst-lines, soldiers)
  --holdout N     set every N-th game aside to validate; print the pass with
                  the lowest validation loss and stop when it rises twice";

const SPSA: &str = "\
usage: jiang spsa --state FILE [--variant V] [--params FILE] [--iterations N]
                  [--batch P] [--nodes N | --tc T] [--openings FILE|random]
                  [--seed S] [--shard I/N] [--concurrency C] [--trajectory FILE]
       jiang spsa --merge STATE...
       jiang spsa --print-params [--variant V]

Tunes the search's parameters by SPSA: each iteration moves all of them at
once by a random sign each and plays game pairs (one opening, both colours)
of this program with the moved values against itself with the opposite
moves, then steps every value toward the winner. Needs a tuning build
(cargo build --release --features tune). The state is saved after every
iteration; the same command again resumes the run.
  --state FILE       the run's state (created if missing, else resumed)
  --variant V        xiangqi (default), janggi, janggitraditional,
                     janggimodern, janggicasual
  --params FILE      parameters to tune, one a line: name, start, min, max,
                     c_end, r_end (default: every parameter of the table,
                     --print-params lists them)
  --iterations N     iterations of the run (default 1000)
  --batch P          game pairs per iteration (default 1)
  --nodes N          nodes per move (default 5000) ...
  --tc T             ... or a clock, seconds (e.g. 10+0.1)
  --openings FILE    EPD openings, used in turn (default
                     bench/openings/GAME.epd under the current directory);
                     random: random openings
  --seed S           seed of the perturbations (default 1)
  --shard I/N        chain I of N independent chains (own perturbations,
                     every N-th opening); --merge averages their states
  --concurrency C    game pairs of one iteration played at once (default 1)
  --trajectory FILE  the values after each iteration, CSV (default
                     FILE.csv next to the state)
  --merge STATE...   print the mean of the chains' values, weighted by pairs
  --print-params     print the default parameter list";

const TRAIN: &str = "\
usage: jiang train --out FILE [--inputs SET] [--hidden H] [--buckets B]
                   [--epochs N] [--batch N] [--lr X] [--schedule cosine|step|constant]
                   [--lr-end R] [--lr-step N] [--lr-gamma G] [--wd W]
                   [--lambda L] [--scale K] [--seed S] [--holdout N]
                   [--threads N] [--keep-noisy] [--no-factorise]
                   [--best FILE] [--checkpoint FILE] [--resume] FILES...

Trains the network of docs/NNUE.md on the positions of `jiang datagen`
files (all of one game) and writes its quantised file to FILE.
  --inputs SET       plain (default): 1260 piece-square inputs;
                     general-buckets: 6 x 1260, chosen by the own general's
                     palace point, mirrored right of the centre file
  --hidden H         hidden units per perspective (default 256)
  --buckets B        output buckets by material (default 8)
  --epochs N         passes over the training positions (default 10)
  --batch N          positions per optimiser step (default 16384)
  --lr X             Adam's learning rate (default 0.001)
  --schedule S       cosine (default) from X down to R*X (--lr-end R,
                     default 0.05); step: times G (--lr-gamma, default 0.3)
                     every N epochs (--lr-step, default 4); constant
  --wd W             AdamW's weight decay (default 0)
  --lambda L         weight of the game result against the score in the
                     target, 0 to 1 (default 0.5)
  --scale K          centipawns of the sigmoid sigma(cp/K) (default 400)
  --seed S           initial weights and shuffles (default 1); a run is the
                     same for any --threads
  --holdout N        every N-th game validates (default 10; 0: none)
  --threads N        worker threads (default: all cores)
  --keep-noisy       keep positions in check, with a capture as best move or
                     a mate score (skipped by default)
  --no-factorise     train each point's weights alone, without the factor
                     per piece kind and side that all its points share (and,
                     with general-buckets, the plain row all buckets share)
  --best FILE        the network of the lowest validation loss
                     (default: FILE with -best before its extension)
  --checkpoint FILE  float weights and optimiser state after each epoch
                     (default FILE.ckpt); --resume continues from it";

/// The help text of `command`, or `None` for an unknown command.
/// `match` has its own text in the match crate.
pub fn command(command: &str) -> Option<&'static str> {
    match command {
        "perft" => Some(PERFT),
        "bench" => Some(BENCH),
        "datagen" => Some(DATAGEN),
        "tune" => Some(TUNE),
        "spsa" => Some(SPSA),
        "train" => Some(TRAIN),
        "match" => Some(jiang_match::cli::USAGE),
        "help" => Some(OVERVIEW),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_command_has_a_text() {
        let listed = OVERVIEW
            .lines()
            .skip_while(|l| *l != "commands:")
            .skip(1)
            .take_while(|l| !l.is_empty())
            .filter_map(|l| l.split_whitespace().next());
        for name in listed {
            assert!(command(name).is_some(), "{name}");
        }
        assert!(command("bogus").is_none());
    }

    /// The help is a fixed text; its defaults must be the search's.
    #[test]
    fn bench_help_states_the_search_defaults() {
        let text = BENCH.split_whitespace().collect::<Vec<_>>().join(" ");
        for (what, default) in [
            ("DEPTH", search::bench::DEFAULT_DEPTH as usize),
            ("THREADS threads", search::DEFAULT_THREADS),
            ("HASH MiB of hash", search::DEFAULT_HASH_MB),
        ] {
            assert!(
                text.contains(&format!("{what} (default {default})")),
                "{what}"
            );
        }
        let most = format!("at most {},", search::bench::MAX_DEPTH);
        assert!(text.contains(&most), "{most}");
    }
}
