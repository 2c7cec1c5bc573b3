def _make_function_class(class_name, update_output, update_grad_input, acc_grad_parameters):
    return type(class_name, (object,), {})
