//! Typed server states injected into tools as `&T`.

use std::any::{Any, TypeId};
use std::collections::HashMap;

#[derive(Default)]
pub(crate) struct States {
    by_type: HashMap<TypeId, Box<dyn Any + Send + Sync>>,
}

impl States {
    /// Adds a state; returns the name of the type if one was already there.
    pub fn insert<T: Send + Sync + 'static>(&mut self, value: T) -> Option<&'static str> {
        self.by_type
            .insert(TypeId::of::<T>(), Box::new(value))
            .map(|_| std::any::type_name::<T>())
    }

    pub fn get<T: 'static>(&self) -> Option<&T> {
        self.by_type
            .get(&TypeId::of::<T>())
            .and_then(|b| b.downcast_ref::<T>())
    }

    pub fn contains(&self, id: TypeId) -> bool {
        self.by_type.contains_key(&id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_are_found_by_type() {
        struct Store(u32);
        let mut s = States::default();
        assert_eq!(s.insert(Store(7)), None);
        assert_eq!(s.insert(5u8), None);
        assert_eq!(s.get::<Store>().unwrap().0, 7);
        assert!(s.get::<u16>().is_none());
        assert!(s.insert(Store(8)).is_some());
        assert_eq!(s.get::<Store>().unwrap().0, 8);
        assert!(s.contains(TypeId::of::<u8>()));
    }
}
