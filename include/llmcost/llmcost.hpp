#pragma once
/// \file
/// llmcost — the core of the library in one include: units, descriptors, costs and serving: the
/// formulas, which take hardware, models and engines as arguments. The data — the catalog of GPUs,
/// models, engines, prices and sites — is its own include, <llmcost/catalog.hpp>: a tool that loads
/// its own hardware or model files does not pay to compile the catalog's constant rows. Name
/// look-up with suggestions (`catalog::lookup`) is <llmcost/catalog/lookup.hpp>. The core does not
/// pull in Eigen; the planning layer (`llmcost/plan.hpp`, which brings the catalog too) does.
///
/// **Example**
/// \code
/// #include <llmcost/llmcost.hpp>
/// using namespace llmcost::literals;
/// static_assert(llmcost::transfer_time(40_GB, 20_TBps) == 2_ms);   // seed S27
/// \endcode

#include <llmcost/units.hpp>

#include <llmcost/costs/roofline.hpp>

#include <llmcost/descriptors/engine.hpp>
#include <llmcost/descriptors/hardware.hpp>
#include <llmcost/descriptors/model.hpp>
#include <llmcost/descriptors/precision.hpp>
#include <llmcost/descriptors/validation.hpp>

#include <llmcost/costs/breakdown.hpp>
#include <llmcost/costs/collectives.hpp>
#include <llmcost/costs/energy.hpp>
#include <llmcost/costs/kv_cache.hpp>
#include <llmcost/costs/moe.hpp>
#include <llmcost/costs/network.hpp>
#include <llmcost/costs/optics.hpp>
#include <llmcost/costs/parallel.hpp>
#include <llmcost/costs/passes.hpp>

#include <llmcost/serving/batching.hpp>
#include <llmcost/serving/breakdown.hpp>
#include <llmcost/serving/disaggregation.hpp>
#include <llmcost/serving/economics.hpp>
#include <llmcost/serving/estimate.hpp>
#include <llmcost/serving/journey.hpp>
#include <llmcost/serving/journey_targets.hpp>
#include <llmcost/serving/lengths.hpp>
#include <llmcost/serving/prefix_cache.hpp>
#include <llmcost/serving/queueing.hpp>
#include <llmcost/serving/receipt.hpp>
#include <llmcost/serving/speculative.hpp>
#include <llmcost/serving/throughput.hpp>
