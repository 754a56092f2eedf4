#pragma once
/// \file
/// llmcost's planning layer in one include: measurements, calibration with uncertainty, sweeps
/// over many configurations at once, the Pareto frontier, the cheapest plan for a traffic
/// description, and the discrete-event serving simulator (sim/simulate.hpp). The only part of llmcost that includes Eigen (CMake target `llmcost::plan`). It
/// brings the core (`<llmcost/llmcost.hpp>`) and the catalog (`<llmcost/catalog.hpp>`) along; the headers under plan/ include only what they use.

#include <llmcost/catalog.hpp>
#include <llmcost/llmcost.hpp>

#include <llmcost/plan/calibrate.hpp>
#include <llmcost/plan/frontier.hpp>
#include <llmcost/plan/fleet.hpp>
#include <llmcost/plan/layouts.hpp>
#include <llmcost/plan/measurement.hpp>
#include <llmcost/plan/sweep.hpp>
#include <llmcost/sim/simulate.hpp>
