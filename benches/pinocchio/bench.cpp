// Pinocchio's forward dynamics (ABA), inverse dynamics (RNEA), mass matrix (CRBA) and ABA's
// analytical derivatives at given states, instantiated in this program, timed and printed
// as `common.hpp` says.
#include <pinocchio/algorithm/aba-derivatives.hpp>
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/rnea.hpp>

#include "common.hpp"

int main(int argc, char** argv) {
  const Bench bench(argc, argv, "pinocchio-bench");
  const pinocchio::Model& model = bench.model;
  pinocchio::Data data(model);
  const auto &qs = bench.qs, &vs = bench.vs, &taus = bench.taus;
  if (bench.count() == 0) return 0;
  bench.time("fd", [&](size_t i) { pinocchio::aba(model, data, qs[i], vs[i], taus[i]); });
  bench.time("id", [&](size_t i) { pinocchio::rnea(model, data, qs[i], vs[i], taus[i]); });
  bench.time("m", [&](size_t i) { pinocchio::crba(model, data, qs[i]); });
  bench.time("dfd", [&](size_t i) {
    pinocchio::computeABADerivatives(model, data, qs[i], vs[i], taus[i]);
  });
  bench.print_accelerations(
      [&](size_t i) { return pinocchio::aba(model, data, qs[i], vs[i], taus[i]); });
}
