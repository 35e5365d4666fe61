// The catalogue of TLM-2.0 base-protocol rules the checker enforces: one enumerator per rule,
// each with a stable dotted name (used in messages and tests), the IEEE 1666-2011 clause it comes
// from and a one-line statement of the rule. README.md prints the same table.
#pragma once

#include <cstdint>
#include <vector>

namespace par::tlmcheck {

enum class Rule : std::uint8_t {
  // Generic payload as the initiator sends it (b_transport, BEGIN_REQ).
  CommandValue,        // gp.command
  DataPointer,         // gp.data_ptr
  DataLength,          // gp.data_length
  ByteEnableLength,    // gp.byte_enable_length
  StreamingWidth,      // gp.streaming_width
  DmiAllowedInit,      // gp.dmi_allowed
  ResponseStatusInit,  // gp.response_status_init
  RefCount,            // gp.ref_count
  // What the target side may and may not do to the payload.
  ResponseStatus,          // gp.response_status
  CommandModified,         // gp.command_modified
  AddressModified,         // gp.address_modified
  DataPointerModified,     // gp.data_ptr_modified
  DataLengthModified,      // gp.data_length_modified
  ByteEnableModified,      // gp.byte_enable_modified
  StreamingWidthModified,  // gp.streaming_width_modified
  WriteDataModified,       // gp.write_data_modified
  ExtensionLeak,           // gp.extension_leak
  // Transaction objects in flight.
  InFlightReuse,       // tx.in_flight_reuse
  MixedInterfaces,     // tx.mixed_interfaces
  BlockingFromMethod,  // b.method_process
  // Timing annotations.
  NegativeDelay,      // timing.negative_delay
  BlockingTimeOrder,  // timing.b_transport_order
  BlockingWait,       // timing.b_transport_wait
  NbTimeOrder,        // timing.nb_transport_order
  // Non-blocking transport (base protocol phases).
  MemoryManager,      // nb.memory_manager
  UnknownPhase,       // nb.unknown_phase
  PhaseDirection,     // nb.phase_direction
  PhaseSequence,      // nb.phase_sequence
  RequestExclusion,   // nb.request_exclusion
  ResponseExclusion,  // nb.response_exclusion
  AcceptedModified,   // nb.accepted_modified
  // Direct memory interface.
  DmiCommand,          // dmi.command
  DmiDescriptorInit,   // dmi.descriptor_init
  DmiPointer,          // dmi.pointer
  DmiRange,            // dmi.range
  DmiAccess,           // dmi.access
  DmiWait,             // dmi.wait
  DmiInvalidateRange,  // dmi.invalidate_range
  // Debug transport.
  DebugDataPointer,  // dbg.data_ptr
  DebugReturnCount,  // dbg.return_count
  DebugWait,         // dbg.wait
};

inline constexpr std::size_t kRuleCount = static_cast<std::size_t>(Rule::DebugWait) + 1;

struct RuleInfo {
  const char* name;     // "gp.response_status"
  const char* section;  // IEEE 1666-2011 clause, "14.17"
  const char* text;     // "a target must set the response status"
};

const RuleInfo& rule_info(Rule rule);
// Every rule, in declaration order.
const std::vector<Rule>& all_rules();

}  // namespace par::tlmcheck
