package io.quotient.core.scheduling;

import java.util.List;

/** The outcome of planning: the actions to apply, in order. Empty when there is nothing to do. */
public record Plan(List<PlanAction> actions) {

    public static final Plan EMPTY = new Plan(List.of());

    public Plan {
        actions = List.copyOf(actions);
    }

    public <T extends PlanAction> List<T> actionsOf(Class<T> type) {
        return actions.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
