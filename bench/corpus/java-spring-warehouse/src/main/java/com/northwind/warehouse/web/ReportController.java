package com.northwind.warehouse.web;

import java.util.List;
import java.util.Map;

import javax.script.ScriptEngine;
import javax.script.ScriptEngineManager;
import javax.script.ScriptException;

import org.springframework.expression.Expression;
import org.springframework.expression.ExpressionParser;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.SimpleEvaluationContext;
import org.springframework.expression.spel.support.StandardEvaluationContext;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;

/** Management reports rendered with Thymeleaf; ad-hoc filters typed by supervisors. */
@Controller
public class ReportController {

    private static final List<String> REPORTS = List.of("daily", "weekly", "inventory");
    private final ExpressionParser parser = new SpelExpressionParser();

    @GetMapping("/reports/{name}")
    public String show(@PathVariable String name, Model model) {
        model.addAttribute("generatedFor", name);
        return "reports/" + name; // vuln: template-injection
    }

    @GetMapping("/reports/fixed/{name}")
    public String showKnown(@PathVariable String name, Model model) {
        String view = REPORTS.contains(name) ? name : "daily";
        return "reports/" + view; // safe: template-injection
    }

    @GetMapping("/reports/filter")
    @ResponseBody
    public Object filter(@RequestParam String expr, @RequestParam(defaultValue = "0") int minimum) {
        Expression expression = parser.parseExpression(expr); // vuln: code-injection [spel]
        return expression.getValue(new StandardEvaluationContext(Map.of("minimum", minimum))); // vuln: code-injection [spel]
    }

    @GetMapping("/reports/threshold")
    @ResponseBody
    public Object threshold(@RequestParam String field) {
        Expression expression = parser.parseExpression("['" + field.replace("'", "''") + "'] > 10"); // safe: code-injection [spel-readonly]
        return expression.getValue(SimpleEvaluationContext.forReadOnlyDataBinding().build(), Map.of("pallets", 12, "cartons", 3)); // safe: code-injection [spel-readonly]
    }

    @GetMapping("/reports/formula")
    @ResponseBody
    public Object formula(@RequestParam String formula) throws ScriptException {
        ScriptEngine js = new ScriptEngineManager().getEngineByName("javascript");
        return js.eval(formula); // vuln: code-injection
    }

    @GetMapping("/reports/version")
    @ResponseBody
    public Object engineVersion() throws ScriptException {
        ScriptEngine js = new ScriptEngineManager().getEngineByName("javascript");
        return js.eval("typeof Java === 'object' ? 'nashorn' : 'graal'"); // safe: code-injection
    }
}
