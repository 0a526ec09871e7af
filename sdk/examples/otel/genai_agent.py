"""An agent traced with OpenTelemetry for Python and the GenAI semantic conventions, sending its traces to
Mnemoscope over OTLP/HTTP protobuf (the only encoding Python's HTTP exporter speaks). No Mnemoscope code.

    pip install opentelemetry-sdk opentelemetry-exporter-otlp-proto-http
    OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:3000/api/v1/otel \\
    OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer $MNEMOSCOPE_API_KEY" \\
    python sdk/examples/otel/genai_agent.py [conversation-id]

The same two turns as genai-agent.ts: a support conversation whose second order lookup fails.
"""

import json
import sys
import time

from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.trace import Status, StatusCode

provider = TracerProvider(resource=Resource.create({"service.name": "plain-genai-agent"}))
provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))  # endpoint and key from the environment
trace.set_tracer_provider(provider)
tracer = trace.get_tracer("support-bot")


def text(role: str, content: str) -> str:
    return json.dumps([{"role": role, "parts": [{"type": "text", "content": content}]}])


def invoke(conversation: str, question: str, answer: str, order_service_up: bool) -> None:
    with tracer.start_as_current_span(
        "invoke_agent support-bot",
        attributes={
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": "support-bot",
            "gen_ai.conversation.id": conversation,
        },
    ):
        with tracer.start_as_current_span("chat gpt-4o") as chat:
            chat.set_attributes(
                {
                    "gen_ai.operation.name": "chat",
                    "gen_ai.request.model": "gpt-4o",
                    "gen_ai.usage.input_tokens": 900,
                    "gen_ai.usage.output_tokens": 60,
                    "gen_ai.input.messages": text("user", question),
                    "gen_ai.output.messages": text("assistant", answer),
                }
            )
            time.sleep(0.015)  # the model thinking
        with tracer.start_as_current_span("execute_tool lookup_order") as tool:
            tool.set_attributes({"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup_order"})
            if not order_service_up:
                tool.set_status(Status(StatusCode.ERROR, "order service timed out"))


if __name__ == "__main__":
    conversation = sys.argv[1] if len(sys.argv) > 1 else "genai-support"
    invoke(conversation, "Where is order 1142?", "It shipped yesterday.", True)
    invoke(conversation, "Can I change the address?", "I could not reach the order service.", False)
    provider.shutdown()  # flushes the last batch
    print(f"sent 2 turns of {conversation}")
