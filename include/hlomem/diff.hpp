// hlomem/diff.hpp: two buffer assignments compared: values matched across compilations, and why memory changed.
#ifndef HLOMEM_DIFF_HPP
#define HLOMEM_DIFF_HPP

#include <hlomem/diff/assignment_diff.hpp>
#include <hlomem/diff/diff_model.hpp>
#include <hlomem/diff/knob_side.hpp>
#include <hlomem/diff/knob_verdict.hpp>
#include <hlomem/diff/knobs.hpp>
#include <hlomem/diff/match.hpp>
#include <hlomem/diff/side.hpp>
#include <hlomem/diff/snapshot.hpp>
#include <hlomem/diff/snapshot_diff.hpp>
#include <hlomem/diff/threshold.hpp>

#endif  // HLOMEM_DIFF_HPP
