// Island: the home page's lease calculator.
export { CalculatorSection as default } from "../pages/home/CalculatorSection";
