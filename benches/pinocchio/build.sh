#!/bin/sh
# Builds Pinocchio's side of `cargo bench --bench robots`, in a virtual environment
# installed from the package registry, against the headers of the `pin` wheel (-O3, one
# thread, the generic x86-64 target that a default cargo build also uses):
# target/pinocchio-bench (bench.cpp: Pinocchio's algorithms instantiated in the program)
# and target/pinocchio-codegen-bench (codegen.cpp: the algorithms generated as C by
# CppADCodeGen and compiled when the program first meets a robot; the libraries it keeps
# are removed here).
set -eu
cd "$(dirname "$0")/../.."
venv=${PINOCCHIO_VENV:-target/pinocchio-venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q pin cmeel-eigen cmeel-urdfdom-headers cmeel-cppad cmeel-cppadcodegen
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
prefix="$site/cmeel.prefix"
"$venv/bin/python" -c 'import pinocchio; print("Pinocchio", pinocchio.__version__)'
build() {
    source=$1
    program=$2
    g++ -O3 -DNDEBUG -std=c++17 \
        -DBOOST_MPL_LIMIT_LIST_SIZE=30 -DBOOST_MPL_LIMIT_VECTOR_SIZE=30 \
        -DBOOST_MPL_CFG_NO_PREPROCESSED_HEADERS -DBOOST_FUSION_INVOKE_MAX_ARITY=12 \
        -DPINOCCHIO_WITH_URDFDOM -DPINOCCHIO_URDFDOM_HEADERS_MAJOR_VERSION=3 \
        -DPINOCCHIO_URDFDOM_HEADERS_MINOR_VERSION=0 -DPINOCCHIO_URDFDOM_HEADERS_PATCH_VERSION=0 \
        -I"$prefix/include" -I"$prefix/include/eigen3" -I"$prefix/include/urdfdom_headers" \
        -I"$prefix/include/urdfdom" \
        "benches/pinocchio/$source" -o "target/$program" \
        -L"$prefix/lib" -lpinocchio_parsers -lpinocchio_default -lurdfdom_model -ldl \
        -Wl,-rpath,"$prefix/lib"
    echo "built target/$program"
}
build bench.cpp pinocchio-bench
build codegen.cpp pinocchio-codegen-bench
rm -rf target/pinocchio-codegen-bench.libs
