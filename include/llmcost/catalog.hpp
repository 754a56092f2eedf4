#pragma once
/// \file
/// llmcost's data in one include: the catalog of GPUs and systems, models, serving engines,
/// market prices, sites and token factories, the seed's journey, and the public request-length
/// datasets. Every entry transcribes a row of `tables/` with its source. The formulas
/// (`<llmcost/llmcost.hpp>`) take these as arguments and never include them, so a tool that
/// brings its own hardware or model files does not pay to compile the catalog. Name look-up with
/// suggestions is its own include, <llmcost/catalog/lookup.hpp>.
///
/// **Example**
/// \code
/// #include <llmcost/catalog.hpp>
/// #include <llmcost/llmcost.hpp>
/// using namespace llmcost::literals;
/// static_assert(llmcost::kv_bytes_per_token(llmcost::catalog::llama_3_1_70b) == 327'680_B / 1_tok);   // seed S16
/// \endcode

#include <llmcost/catalog/datasets.hpp>
#include <llmcost/catalog/economics.hpp>
#include <llmcost/catalog/engines.hpp>
#include <llmcost/catalog/gemm_tables.hpp>
#include <llmcost/catalog/hardware.hpp>
#include <llmcost/catalog/journeys.hpp>
#include <llmcost/catalog/models.hpp>
#include <llmcost/catalog/prices.hpp>
