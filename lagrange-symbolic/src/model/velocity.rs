//! The check of velocity (nonholonomic) constraints `a(t, q)·q̇ + b(t, q) = 0`: each is
//! written as its left side, which must be linear in the velocities, as written — a
//! polynomial of degree at most one in the `dot(q)`, none of them inside a function, a
//! denominator or a power other than the first — and involve at least one of them.

use super::scope::Scope;
use super::{Item, Model, ModelError};
use crate::syntax::print::excerpt_text;
use crate::syntax::{Expr, Rational};

impl Model {
    /// Parses the velocity constraints and checks that each is linear in the velocities
    /// and involves one.
    pub(super) fn check_velocity_constraints(
        &self,
        scope: &Scope<'_>,
        errors: &mut Vec<ModelError>,
    ) -> Vec<Expr> {
        let mut constraints = Vec::new();
        for (i, source) in self.velocity_constraints.iter().enumerate() {
            let item = Item::VelocityConstraint(i);
            let shown = excerpt_text(source);
            match scope.parse(item, source, true) {
                Ok(e) => {
                    let problem = match velocity_degree(&e) {
                        None | Some(2..) => Some(format!(
                            "the velocity constraint `{shown} = 0` is not linear in the velocities: write it as a(t, q)·q̇ + b(t, q), each dot(q) to the first power and outside functions and denominators"
                        )),
                        Some(0) => Some(format!(
                            "the velocity constraint `{shown} = 0` involves no velocity: a relation between coordinates is a holonomic `constraint`"
                        )),
                        Some(_) => None,
                    };
                    if let Some(message) = problem {
                        errors.push(ModelError { item, message });
                    }
                    constraints.push(e);
                }
                Err(e) => errors.extend(e),
            }
        }
        constraints
    }
}

/// The degree of `e` as a polynomial in the velocities, as written; `None` when it is not
/// one (a velocity inside a function or a denominator, or raised to a power that is not a
/// non-negative integer).
fn velocity_degree(e: &Expr) -> Option<u32> {
    match e {
        Expr::Velocity(_) => Some(1),
        Expr::Number(_) | Expr::Name(_) | Expr::Acceleration(_) => Some(0),
        Expr::Neg(a) => velocity_degree(a),
        Expr::Add(terms) => terms
            .iter()
            .map(velocity_degree)
            .try_fold(0, |d, t| Some(d.max(t?))),
        Expr::Mul(factors) => factors
            .iter()
            .map(velocity_degree)
            .try_fold(0u32, |d, f| d.checked_add(f?)),
        Expr::Div(a, b) => match velocity_degree(b)? {
            0 => velocity_degree(a),
            _ => None,
        },
        Expr::Pow(base, exponent) => match (velocity_degree(base)?, velocity_degree(exponent)?) {
            (0, 0) => Some(0),
            (d, 0) => match **exponent {
                Expr::Number(Rational { num, den: 1 }) if (0..=2).contains(&num) => {
                    d.checked_mul(num as u32)
                }
                _ => None,
            },
            _ => None,
        },
        Expr::Call(_, a) => match velocity_degree(a)? {
            0 => Some(0),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::velocity_degree;
    use crate::syntax::Expr;

    fn degree(source: &str) -> Option<u32> {
        velocity_degree(&Expr::parse(source).unwrap())
    }

    #[test]
    fn linear_forms_have_degree_one_and_the_rest_are_refused() {
        for linear in [
            "dot(y)*cos(theta) - dot(x)*sin(theta)",
            "-(dot(x) - R*cos(theta)*dot(phi))/2",
            "x*dot(x) + y*dot(y) + t^2",
            "dot(x)^1 + sin(t)*dot(y)",
        ] {
            assert_eq!(degree(linear), Some(1), "{linear}");
        }
        for quadratic in ["dot(x)^2", "dot(x)*dot(y) + dot(x)"] {
            assert_eq!(degree(quadratic), Some(2), "{quadratic}");
        }
        for not_polynomial in [
            "sin(dot(x))",
            "1/dot(x)",
            "x/(1 + dot(y))",
            "dot(x)^(1/2)",
            "2^dot(x)",
            "dot(x)^y",
        ] {
            assert_eq!(degree(not_polynomial), None, "{not_polynomial}");
        }
        assert_eq!(degree("x^2 + y^2 - 1"), Some(0));
    }
}
