// Pinocchio's forward dynamics (ABA), inverse dynamics (RNEA), mass matrix (CRBA) and ABA's
// analytical derivatives at given states, timed as `benches/robots.rs` times lagrange's:
// the best of 5 rounds of `rounds` calls cycling through the states. Reads the URDF and
// a file of states (one per line: q, then v; the torque is the URDF's joint damping,
// -d v), prints the joints' names, the nanoseconds per call and ABA's accelerations at
// each state.
#include <pinocchio/algorithm/aba-derivatives.hpp>
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/rnea.hpp>
#include <pinocchio/parsers/urdf.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: pinocchio-bench ROBOT.urdf STATES ROUNDS\n";
    return 2;
  }
  pinocchio::Model model;
  pinocchio::urdf::buildModel(argv[1], model);
  pinocchio::Data data(model);
  const int n = model.nv;
  std::vector<Eigen::VectorXd> qs, vs, taus;
  std::ifstream states(argv[2]);
  std::string line;
  while (std::getline(states, line)) {
    std::istringstream in(line);
    Eigen::VectorXd q(n), v(n);
    for (int i = 0; i < n; ++i) in >> q[i];
    for (int i = 0; i < n; ++i) in >> v[i];
    Eigen::VectorXd tau = -model.damping.cwiseProduct(v);
    qs.push_back(q);
    vs.push_back(v);
    taus.push_back(tau);
  }
  const long rounds = std::stol(argv[3]);
  const size_t count = qs.size();
  std::cout << "joints";
  for (int j = 1; j < model.njoints; ++j) std::cout << ' ' << model.names[j];
  std::cout << '\n';
  auto time = [&](const char* name, auto call) {
    double best = 1e300;
    for (int round = 0; round < 5; ++round) {
      auto start = std::chrono::steady_clock::now();
      for (long i = 0; i < rounds; ++i) call(i % count);
      auto end = std::chrono::steady_clock::now();
      best = std::min(best, std::chrono::duration<double, std::nano>(end - start).count() / rounds);
    }
    std::cout << name << ' ' << best << '\n';
  };
  time("fd", [&](size_t i) { pinocchio::aba(model, data, qs[i], vs[i], taus[i]); });
  time("id", [&](size_t i) { pinocchio::rnea(model, data, qs[i], vs[i], taus[i]); });
  time("m", [&](size_t i) { pinocchio::crba(model, data, qs[i]); });
  time("dfd", [&](size_t i) { pinocchio::computeABADerivatives(model, data, qs[i], vs[i], taus[i]); });
  for (size_t i = 0; i < count; ++i) {
    const Eigen::VectorXd& ddq = pinocchio::aba(model, data, qs[i], vs[i], taus[i]);
    std::cout << "ddq";
    for (int j = 0; j < n; ++j) std::printf(" %.17g", ddq[j]);
    std::cout << '\n';
  }
}
