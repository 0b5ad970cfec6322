// What the Pinocchio programs of `cargo bench --bench robots` share: their arguments
// (ROBOT.urdf STATES ROUNDS), the states file (one state per line: q, then v; the torque
// is the URDF's joint damping, -d v), the timing (the best of 5 rounds of `rounds` calls
// cycling through the states, as `benches/robots.rs` times lagrange's) and the output:
// `joints NAME…`, then `NAME NS` per timed function, then `ddq …` (ABA's accelerations)
// per state.
#pragma once

#include <pinocchio/multibody.hpp>
#include <pinocchio/parsers/urdf.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

struct Bench {
  pinocchio::Model model;
  std::vector<Eigen::VectorXd> qs, vs, taus;
  long rounds = 0;

  // Reads the arguments, the URDF and the states, and prints the joints' names.
  Bench(int argc, char** argv, const char* usage) {
    if (argc != 4) {
      std::cerr << "usage: " << usage << " ROBOT.urdf STATES ROUNDS\n";
      std::exit(2);
    }
    pinocchio::urdf::buildModel(argv[1], model);
    if (model.nq != model.nv) {
      std::cerr << "a joint whose configuration is not its velocity's size\n";
      std::exit(2);
    }
    const int n = model.nv;
    std::ifstream states(argv[2]);
    std::string line;
    while (std::getline(states, line)) {
      std::istringstream in(line);
      Eigen::VectorXd q(n), v(n);
      for (int i = 0; i < n; ++i) in >> q[i];
      for (int i = 0; i < n; ++i) in >> v[i];
      qs.push_back(q);
      vs.push_back(v);
      taus.push_back(-model.damping.cwiseProduct(v));
    }
    rounds = std::stol(argv[3]);
    std::cout << "joints";
    for (int j = 1; j < model.njoints; ++j) std::cout << ' ' << model.names[j];
    std::cout << '\n';
  }

  size_t count() const { return qs.size(); }

  // Prints `name` and the best of 5 rounds of `rounds` calls of `call(i)`, ns per call.
  template <class Call>
  void time(const char* name, Call call) const {
    double best = 1e300;
    for (int round = 0; round < 5; ++round) {
      auto start = std::chrono::steady_clock::now();
      for (long i = 0; i < rounds; ++i) call(i % count());
      auto end = std::chrono::steady_clock::now();
      best = std::min(best, std::chrono::duration<double, std::nano>(end - start).count() / rounds);
    }
    std::cout << name << ' ' << best << '\n';
  }

  // Prints `ddq(i)`, the accelerations at each state, to the last bit.
  template <class Ddq>
  void print_accelerations(Ddq ddq) const {
    for (size_t i = 0; i < count(); ++i) {
      const Eigen::VectorXd a = ddq(i);
      std::cout << "ddq";
      for (int j = 0; j < a.size(); ++j) std::printf(" %.17g", a[j]);
      std::cout << '\n';
    }
  }
};
