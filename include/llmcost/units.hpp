#pragma once
/// \file
/// The units layer of llmcost: the unit system, named concepts, makers and literals, and the
/// text layer. Everything else in the library speaks these types.

#include <llmcost/units/concepts.hpp>
#include <llmcost/units/makers.hpp>
#include <llmcost/units/system.hpp>
#include <llmcost/units/text.hpp>
