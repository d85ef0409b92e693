//! [`ByGame`]: one value per game, the one place that maps a [`Game`] to
//! its slot (like shakmaty's `ByColor`).

use std::ops::{Index, IndexMut};

use crate::Game;

impl Game {
    /// Both games, Xiangqi first.
    pub const ALL: [Game; 2] = [Game::Xiangqi, Game::Janggi];
}

/// A value for each game: tables, settings, networks.
///
/// ```
/// use movegen::{ByGame, Game, Variant};
/// const MOVE_LIMIT: ByGame<u16> = ByGame::new(120, 100);
/// assert_eq!(MOVE_LIMIT[Variant::JanggiCasual.game()], 100);
/// assert_eq!(*MOVE_LIMIT.get(Game::Xiangqi), 120);
/// let names = ByGame::from_fn(|g| format!("{g:?}"));
/// assert_eq!(names.janggi, "Janggi");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByGame<T> {
    /// Xiangqi's value.
    pub xiangqi: T,
    /// Janggi's value (every Janggi rule set).
    pub janggi: T,
}

impl<T> ByGame<T> {
    /// The values of Xiangqi and Janggi.
    pub const fn new(xiangqi: T, janggi: T) -> ByGame<T> {
        ByGame { xiangqi, janggi }
    }

    /// Each game's value from `f`.
    pub fn from_fn(mut f: impl FnMut(Game) -> T) -> ByGame<T> {
        ByGame::new(f(Game::Xiangqi), f(Game::Janggi))
    }

    /// The value of `game` (usable in `const` context, unlike indexing).
    #[inline]
    pub const fn get(&self, game: Game) -> &T {
        match game {
            Game::Xiangqi => &self.xiangqi,
            Game::Janggi => &self.janggi,
        }
    }

    /// The value of `game`, to change.
    #[inline]
    pub fn get_mut(&mut self, game: Game) -> &mut T {
        match game {
            Game::Xiangqi => &mut self.xiangqi,
            Game::Janggi => &mut self.janggi,
        }
    }

    /// Each game's value through `f`.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByGame<U> {
        ByGame::new(f(self.xiangqi), f(self.janggi))
    }

    /// References to both values.
    pub const fn as_ref(&self) -> ByGame<&T> {
        ByGame::new(&self.xiangqi, &self.janggi)
    }

    /// The games with their values, Xiangqi first.
    pub fn iter(&self) -> impl Iterator<Item = (Game, &T)> {
        [(Game::Xiangqi, &self.xiangqi), (Game::Janggi, &self.janggi)].into_iter()
    }
}

impl<T> Index<Game> for ByGame<T> {
    type Output = T;

    #[inline]
    fn index(&self, game: Game) -> &T {
        self.get(game)
    }
}

impl<T> IndexMut<Game> for ByGame<T> {
    #[inline]
    fn index_mut(&mut self, game: Game) -> &mut T {
        self.get_mut(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_has_its_own_slot() {
        let mut b = ByGame::new(1, 2);
        assert_eq!((b[Game::Xiangqi], b[Game::Janggi]), (1, 2));
        b[Game::Janggi] = 5;
        assert_eq!(b, ByGame::new(1, 5));
        assert_eq!(b.map(|v| v * 10), ByGame::new(10, 50));
        let games: Vec<Game> = b.iter().map(|(g, _)| g).collect();
        assert_eq!(games, Game::ALL);
    }
}
