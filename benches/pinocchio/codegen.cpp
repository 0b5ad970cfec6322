// Code-generated Pinocchio (CppADCodeGen): ABA, RNEA, CRBA and ABA's analytical
// derivatives traced once, written as C, compiled by gcc with -O3 alone (the generic x86-64
// target that a default cargo build also uses) into one shared library per function and
// loaded, then timed and printed as `common.hpp` says, through the generators' own
// `evalFunction`. The libraries are kept in `<this program>.libs/`, one folder per URDF's
// text; `build NAME S` gives the seconds a function took to trace, generate and compile
// when its library was made. Every output is checked against Pinocchio's own algorithms
// at every state (`difference …`, relative to the largest entry); the program fails past
// 1e-9.
#include <pinocchio/codegen/cppadcg-algo.hpp>

#include <pinocchio/algorithm/aba-derivatives.hpp>
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/rnea.hpp>

#include <filesystem>
#include <functional>
#include <iomanip>

#include "common.hpp"

namespace {

const char* const OPTIONS = "-O3";

// A generator with its output vector in reach.
template <class Generator>
struct Generated : Generator {
  using Generator::Generator;
  using Generator::y;
};

// Traces, generates and compiles `generator`'s library unless it is kept from before, loads
// it and prints the seconds its making took.
template <class Generator>
void build(const char* name, Generator& generator) {
  const auto start = std::chrono::steady_clock::now();
  generator.initLib();
  const bool kept = generator.existLib();
  generator.loadLib(true, "/usr/bin/gcc", OPTIONS);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string record = std::string(name) + ".seconds";
  double made = seconds;
  if (kept) {
    std::ifstream(record) >> made;
  } else {
    std::ofstream(record) << std::setprecision(17) << seconds << '\n';
  }
  std::cout << "build " << name << ' ' << made << '\n';
}

// The largest difference of `ours` from `reference`, relative to the largest entry of
// `reference` (at least 1).
double difference(const Eigen::Ref<const Eigen::MatrixXd>& ours,
                  const Eigen::Ref<const Eigen::MatrixXd>& reference) {
  const double scale = std::max(1.0, reference.cwiseAbs().maxCoeff());
  return (ours - reference).cwiseAbs().maxCoeff() / scale;
}

}  // namespace

int main(int argc, char** argv) {
  const Bench bench(argc, argv, "pinocchio-codegen-bench");
  const pinocchio::Model& model = bench.model;
  const auto &qs = bench.qs, &vs = bench.vs, &taus = bench.taus;
  if (bench.count() == 0) return 0;
  const int n = model.nv;

  // The libraries' folder, named by the URDF's text and the compiler's options.
  std::ifstream file(argv[1]);
  const std::string urdf((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::ostringstream folder;
  folder << argv[0] << ".libs/" << model.name << '-' << std::hex
         << std::hash<std::string>()(urdf + OPTIONS);
  std::filesystem::create_directories(folder.str());
  std::filesystem::current_path(folder.str());

  Generated<pinocchio::CodeGenABA<double>> aba(model);
  Generated<pinocchio::CodeGenRNEA<double>> rnea(model);
  Generated<pinocchio::CodeGenCRBA<double>> crba(model);
  Generated<pinocchio::CodeGenABADerivatives<double>> aba_derivatives(model);
  build("fd", aba);
  build("id", rnea);
  build("m", crba);
  build("dfd", aba_derivatives);

  bench.time("fd", [&](size_t i) { aba.evalFunction(qs[i], vs[i], taus[i]); });
  bench.time("id", [&](size_t i) { rnea.evalFunction(qs[i], vs[i], taus[i]); });
  bench.time("m", [&](size_t i) { crba.evalFunction(qs[i]); });
  bench.time("dfd", [&](size_t i) { aba_derivatives.evalFunction(qs[i], vs[i], taus[i]); });

  // Every output against Pinocchio's own at every state.
  pinocchio::Data data(model);
  double fd = 0, id = 0, m = 0, dfd = 0;
  using Rows = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  for (size_t i = 0; i < bench.count(); ++i) {
    aba.evalFunction(qs[i], vs[i], taus[i]);
    fd = std::max(fd, difference(aba.y, pinocchio::aba(model, data, qs[i], vs[i], taus[i])));
    rnea.evalFunction(qs[i], vs[i], taus[i]);
    id = std::max(id, difference(rnea.y, pinocchio::rnea(model, data, qs[i], vs[i], taus[i])));
    crba.evalFunction(qs[i]);
    pinocchio::crba(model, data, qs[i]);
    m = std::max(m, difference(crba.M.triangularView<Eigen::Upper>().toDenseMatrix(),
                               data.M.triangularView<Eigen::Upper>().toDenseMatrix()));
    aba_derivatives.evalFunction(qs[i], vs[i], taus[i]);
    pinocchio::computeABADerivatives(model, data, qs[i], vs[i], taus[i]);
    Rows ours = Eigen::Map<const Rows>(aba_derivatives.y.data(), 3 * n, n);
    Eigen::MatrixXd theirs(3 * n, n);
    theirs << data.ddq_dq, data.ddq_dv, data.Minv;
    dfd = std::max(dfd, difference(ours, theirs));
  }
  std::cout << "difference fd " << fd << " id " << id << " m " << m << " dfd " << dfd << '\n';
  bench.print_accelerations([&](size_t i) -> Eigen::VectorXd {
    aba.evalFunction(qs[i], vs[i], taus[i]);
    return aba.y;
  });
  if (!(std::max({fd, id, m, dfd}) <= 1e-9)) {
    std::cerr << "code-generated Pinocchio differs from Pinocchio\n";
    return 1;
  }
}
