/**
 * The 20 Typed Decisions question schemas (workflow -> question id -> wire question), in the
 * dataset's key order. Texts from LocalLLaMA/typed-decisions (Apache-2.0); the `urgency`
 * instructions of invoice_processing and security_incidents were not found in public copies
 * and carry plausible wording. Used only by the synthetic sample generator.
 */
export const QUESTION_SCHEMAS = {
  agent_trace_observability: {
    action: {
      type: 'choice',
      instructions: 'What should the observability system do with this trace?',
      criteria: {
        continue: 'Let the agent proceed without interruption.',
        human_review: 'Queue this trace for a human to review.',
        observe: 'Keep running, but flag the trace for later sampling.',
        stop: 'Halt the agent now.',
      },
    },
    needs_review: {
      type: 'noul',
      instructions: 'This trace requires human review.',
      criteria: {
        false: 'No human attention is warranted.',
        true: 'A human should inspect this run.',
      },
    },
    outcome: {
      type: 'choice',
      instructions: 'How did this agent run turn out?',
      criteria: {
        failure: 'The agent did not accomplish the task.',
        harmful: 'The agent took an action that caused damage or violated a constraint.',
        partial: 'The agent made progress but did not fully complete the task.',
        success: 'The agent completed the task correctly.',
      },
    },
    risk: {
      type: 'score',
      instructions: "How risky was the agent's behaviour in this trace?",
      criteria: [
        'Benign: read-only or clearly safe actions.',
        'Low: routine writes within scope.',
        'Moderate: irreversible or out-of-scope actions.',
        'High: destructive, security-relevant, or policy-violating actions.',
      ],
    },
    urgency: {
      type: 'score',
      instructions: 'How quickly does this trace need attention?',
      criteria: [
        'No time pressure; can wait indefinitely.',
        'Routine; handle within the normal queue.',
        'Elevated; should be handled within the same week.',
        'Critical; requires action within the same day.',
      ],
    },
  },
  customer_service: {
    action: {
      type: 'choice',
      instructions: 'What should the assistant do next with this conversation?',
      criteria: {
        answer_directly: 'The assistant can resolve this itself with information it already has.',
        close_no_action: 'No further action is warranted; the matter is settled.',
        escalate_to_human: 'Hand off to a human agent with the appropriate authority.',
        execute_refund: 'Issue the refund or credit the customer is owed.',
        request_information: 'More detail is needed from the customer before anything can be done.',
      },
    },
    category: {
      type: 'choice',
      instructions: 'What is this customer conversation primarily about?',
      criteria: {
        account: 'Login, plan changes, profile or access management.',
        billing: 'A charge, invoice, subscription or payment problem.',
        delivery: 'Shipping, fulfilment or delivery of a physical item.',
        refund: 'The customer is explicitly asking for money back.',
        technical: 'The product or service is not working as expected.',
      },
    },
    churn_risk: {
      type: 'score',
      instructions: 'How likely is this customer to stop doing business with us because of this interaction?',
      criteria: [
        'No sign of dissatisfaction.',
        'Mild frustration, but the relationship is intact.',
        'Clearly unhappy; repeat problems or explicit complaints.',
        'Imminent: threatening to cancel, dispute or leave.',
      ],
    },
    needs_human: {
      type: 'noul',
      instructions: 'This conversation requires a human agent rather than automated handling.',
      criteria: {
        false: 'Automation can carry this to resolution.',
        true: 'A human must take over: judgement, authority or empathy is required.',
      },
    },
    urgency: {
      type: 'score',
      instructions: 'How time-sensitive is this conversation?',
      criteria: [
        'No time pressure; can wait indefinitely.',
        'Routine; handle within the normal queue.',
        'Elevated; should be handled within the same week.',
        'Critical; requires action within the same day.',
      ],
    },
  },
  invoice_processing: {
    discrepancy_severity: {
      type: 'score',
      instructions: 'How material is any discrepancy between the invoice, the order and the delivery?',
      criteria: [
        'None: everything reconciles.',
        'Trivial: rounding or a cosmetic difference.',
        'Moderate: a real difference worth confirming.',
        'Material: a large or unexplained difference.',
      ],
    },
    disposition: {
      type: 'choice',
      instructions: 'How should this vendor invoice be dispositioned?',
      criteria: {
        approve: 'Matches the order and delivery; approve for payment.',
        hold: 'Something needs confirming before payment; hold pending clarification.',
        manual_review: 'A human in finance must review the discrepancy.',
        reject: 'Should not be paid: duplicate, unauthorised or materially wrong.',
      },
    },
    duplicate: {
      type: 'noul',
      instructions: 'This invoice appears to duplicate an invoice already submitted.',
    },
    matches_order: {
      type: 'noul',
      instructions: 'The invoice reconciles with the purchase order and the recorded delivery.',
      criteria: {
        false: 'There is a discrepancy against the order or the delivery.',
        true: 'Line items, quantities and amounts reconcile.',
      },
    },
    urgency: {
      type: 'score',
      instructions: 'How time-sensitive is processing this invoice?',
      criteria: [
        'No time pressure; can wait indefinitely.',
        'Routine; handle within the normal queue.',
        'Elevated; should be handled within the same week.',
        'Critical; requires action within the same day.',
      ],
    },
  },
  security_incidents: {
    credential_compromise: {
      type: 'noul',
      instructions: 'The evidence indicates a credential or account has been compromised.',
    },
    disposition: {
      type: 'choice',
      instructions: 'How should this security alert be dispositioned?',
      criteria: {
        close_benign: 'Expected, explainable activity; close without analyst time.',
        contain: 'Contain the host or account immediately; do not wait for triage.',
        investigate: 'Warrants an analyst opening an investigation.',
        monitor: 'Not clearly malicious, but worth watching for recurrence.',
      },
    },
    severity: {
      type: 'score',
      instructions: 'How severe is the potential impact if this alert is real?',
      criteria: [
        'Negligible: no access to anything sensitive.',
        'Low: limited access, easily reversed.',
        'Moderate: access to internal systems or non-public data.',
        'High: access to production, secrets or customer data.',
        'Critical: active compromise of crown-jewel systems.',
      ],
    },
    true_positive: {
      type: 'noul',
      instructions: 'This alert reflects genuinely malicious or unauthorised activity.',
      criteria: {
        false: 'Benign activity, a misconfiguration, or a known false positive.',
        true: 'The underlying behaviour is malicious or unauthorised.',
      },
    },
    urgency: {
      type: 'score',
      instructions: 'How quickly does this alert need a response?',
      criteria: [
        'No time pressure; can wait indefinitely.',
        'Routine; handle within the normal queue.',
        'Elevated; should be handled within the same week.',
        'Critical; requires action within the same day.',
      ],
    },
  },
} as const;

export type WorkflowName = keyof typeof QUESTION_SCHEMAS;

export const WORKFLOWS = Object.keys(QUESTION_SCHEMAS) as WorkflowName[];
