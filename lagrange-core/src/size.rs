//! Sizes: the numbers of coordinates `N` and of constraints `K` as nalgebra dimensions,
//! fixed by the type (`Const<n>`, what the derive generates) or known only at run time
//! (`Dyn`, what a model loaded at run time uses). The runtime is written
//! once over both.

use nalgebra::allocator::Allocator;
use nalgebra::{DefaultAllocator, Dim};

/// The storage the runtime needs for a system of `N` coordinates: vectors and square
/// matrices of that size. Generic code states it once, `where DefaultAllocator:
/// DimAllocator<N>`, instead of each `Allocator` bound.
pub trait DimAllocator<N: Dim>: Allocator<N> + Allocator<N, N> {}

impl<N: Dim> DimAllocator<N> for DefaultAllocator where
    DefaultAllocator: Allocator<N> + Allocator<N, N>
{
}

/// The storage for a system of `N` coordinates and `K` constraints: beside
/// [`DimAllocator`]'s for either size, the matrices between the two.
pub trait ConstraintAllocator<N: Dim, K: Dim>:
    DimAllocator<N> + DimAllocator<K> + Allocator<K, N> + Allocator<N, K>
{
}

impl<N: Dim, K: Dim> ConstraintAllocator<N, K> for DefaultAllocator where
    DefaultAllocator: DimAllocator<N> + DimAllocator<K> + Allocator<K, N> + Allocator<N, K>
{
}
